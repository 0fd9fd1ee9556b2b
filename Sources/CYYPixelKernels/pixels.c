// Whole-image pixel loops that are too slow in unoptimised Swift and simple enough to trust in C:
// the integer box shrink and alpha (un)premultiplication. Plain loops the compiler vectorises.
#include "yy_pixel_kernels.h"
#include "simd.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// The kernels' choice: -1 not decided yet, 0 the portable loops, 1 AVX2. Every thread decides the
// same, so relaxed order is enough; it is atomic because a plain int written by one thread while
// another reads it is a data race in C.
static _Atomic int use_avx2 = -1;
// A thread's own choice (a test comparing the paths), -1 for the process's: other threads keep
// theirs, so a comparison never slows the rest of the process down to the portable loops.
static _Thread_local int thread_choice = -1;

/// Whether this processor runs AVX2 and YY_PIXEL_KERNELS does not say "portable".
static int avx2_wanted(void) {
#if YY_AVX2_PATH
    const char *choice = getenv("YY_PIXEL_KERNELS");
    if (choice != NULL && strcmp(choice, "portable") == 0) return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

static int process_choice(void) {
    int answer = atomic_load_explicit(&use_avx2, memory_order_relaxed);
    if (answer < 0) {
        answer = avx2_wanted();
        atomic_store_explicit(&use_avx2, answer, memory_order_relaxed);
    }
    return answer;
}

int yy_pixel_kernels_use_avx2(void) {
    const int choice = thread_choice;
    if (choice == 0) return 0;
    return process_choice();
}

void yy_pixel_kernels_set_simd_on_this_thread(int choice) {
    thread_choice = choice < 0 ? -1 : choice ? 1 : 0;
}

/// `value * alpha / 255`, rounded, exactly: t = value * alpha + 128; (t + (t >> 8)) >> 8.
static inline uint32_t premultiplied_sample(uint32_t value, uint32_t alpha) {
    const uint32_t t = value * alpha + 128;
    return (t + (t >> 8)) >> 8;
}

/// Each output pixel's columns of one block row of sums, averaged: `SUM_TYPE` is the sums' type.
#define AVERAGE_COLUMNS(SUM_TYPE)                                                                     \
    static void average_columns_##SUM_TYPE(const SUM_TYPE *sums, int32_t src_width, int32_t factor_x, \
                                           int32_t rows, uint8_t *out) {                             \
        const int32_t out_width = (src_width + factor_x - 1) / factor_x;                             \
        /* Rounded division by a block's area through a 32-bit reciprocal, worked out once for  */ \
        /* the full blocks (a division per pixel would cost more than the sums).                */ \
        const uint64_t full_area = (uint64_t)factor_x * (uint64_t)rows;                              \
        const uint64_t full_reciprocal = ((1ull << 32) + full_area / 2) / full_area;                 \
        for (int32_t x = 0; x < out_width; x++) {                                                    \
            const int32_t column0 = x * factor_x;                                                    \
            const int32_t columns = column0 + factor_x <= src_width ? factor_x : src_width - column0; \
            const SUM_TYPE *sum = sums + (size_t)column0 * 4;                                        \
            uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                 \
            for (int32_t c = 0; c < columns; c++, sum += 4) {                                        \
                s0 += sum[0]; s1 += sum[1]; s2 += sum[2]; s3 += sum[3];                              \
            }                                                                                        \
            const uint64_t area = (uint64_t)columns * (uint64_t)rows;                                \
            const uint64_t reciprocal = columns == factor_x ? full_reciprocal : ((1ull << 32) + area / 2) / area; \
            out[x * 4 + 0] = (uint8_t)((s0 * reciprocal + (1ull << 31)) >> 32);                      \
            out[x * 4 + 1] = (uint8_t)((s1 * reciprocal + (1ull << 31)) >> 32);                      \
            out[x * 4 + 2] = (uint8_t)((s2 * reciprocal + (1ull << 31)) >> 32);                      \
            out[x * 4 + 3] = (uint8_t)((s3 * reciprocal + (1ull << 31)) >> 32);                      \
        }                                                                                            \
    }
AVERAGE_COLUMNS(uint16_t)
AVERAGE_COLUMNS(uint32_t)

#if YY_AVX2_PATH

/// Pixels 0-1 and 4-5 of `pixels` (eight RGBA8 pixels), then 2-3 and 6-7, widened to int16 (the
/// order of `_mm256_unpacklo_epi8` and `_mm256_unpackhi_epi8`), colour multiplied by alpha with
/// the exact rounding of `premultiplied_sample` (alpha times 255, which that rounding turns back
/// into alpha).
__attribute__((target("avx2")))
static inline void premultiplied_halves_avx2(__m256i pixels, __m256i halves[2]) {
    // Within each 128-bit lane, the two pixels of a half take their alphas (bytes 3 and 7) as
    // int16 factors; the alpha samples' own factor is set to 255 by the blend below.
    const __m256i alpha_of = _mm256_set_epi8(
        -1, 7, -1, 7, -1, 7, -1, 7, -1, 3, -1, 3, -1, 3, -1, 3,
        -1, 7, -1, 7, -1, 7, -1, 7, -1, 3, -1, 3, -1, 3, -1, 3);
    const __m256i alpha_lanes = _mm256_set_epi16(-1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0);
    const __m256i v255 = _mm256_set1_epi16(255), v128 = _mm256_set1_epi16(128);
    halves[0] = _mm256_unpacklo_epi8(pixels, _mm256_setzero_si256());
    halves[1] = _mm256_unpackhi_epi8(pixels, _mm256_setzero_si256());
    const __m256i alphas[2] = {_mm256_shuffle_epi8(pixels, alpha_of), _mm256_shuffle_epi8(_mm256_srli_si256(pixels, 8), alpha_of)};
    for (int h = 0; h < 2; h++) {
        const __m256i factor = _mm256_blendv_epi8(alphas[h], v255, alpha_lanes);
        const __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(halves[h], factor), v128);
        halves[h] = _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
    }
}

/// Sums `rows` rows of `n` bytes (whole pixels) into `sums` (int16: at most 257 rows of 255), 32
/// bytes a step; `premultiplying` (a constant at each call) sums colour times alpha instead, so
/// that no premultiplied copy of the rows is made.
__attribute__((target("avx2"), always_inline))
static inline void sum_rows_avx2(const uint8_t *src, size_t stride, int32_t rows, size_t n, uint16_t *sums, int premultiplying) {
    const __m256i zero = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i low = zero, high = zero;
        for (int32_t r = 0; r < rows; r++) {
            const uint8_t *row = src + (size_t)r * stride + i;
            // The hardware prefetcher falls behind on several rows read side by side (a bare
            // 3-row read ran at 0.7 of a plain sequential read's speed; with this, level with it).
            _mm_prefetch((const char *)row + 256, _MM_HINT_T0);
            const __m256i bytes = _mm256_loadu_si256((const __m256i *)(const void *)row);
            __m256i halves[2];
            if (premultiplying) {
                premultiplied_halves_avx2(bytes, halves);
            } else {
                halves[0] = _mm256_unpacklo_epi8(bytes, zero);
                halves[1] = _mm256_unpackhi_epi8(bytes, zero);
            }
            low = _mm256_add_epi16(low, halves[0]);
            high = _mm256_add_epi16(high, halves[1]);
        }
        // The unpacks work per 128-bit lane: bytes 0-7 and 16-23 in `low`, 8-15 and 24-31 in `high`.
        _mm256_storeu_si256((__m256i *)(void *)(sums + i), _mm256_permute2x128_si256(low, high, 0x20));
        _mm256_storeu_si256((__m256i *)(void *)(sums + i + 16), _mm256_permute2x128_si256(low, high, 0x31));
    }
    for (; i < n; i += 4) {
        uint32_t total[4] = {0, 0, 0, 0};
        for (int32_t r = 0; r < rows; r++) {
            const uint8_t *pixel = src + (size_t)r * stride + i;
            for (int c = 0; c < 4; c++) total[c] += premultiplying && c < 3 ? premultiplied_sample(pixel[c], pixel[3]) : pixel[c];
        }
        for (int c = 0; c < 4; c++) sums[i + (size_t)c] = (uint16_t)total[c];
    }
}

/// Each of `v`'s eight uint32 times `reciprocal`, rounded and shifted down 32 bits: the rounded
/// division of `average_columns_uint16_t`, four samples per `vpmuludq`.
__attribute__((target("avx2")))
static inline __m256i divide_by_reciprocal(__m256i v, __m256i reciprocal) {
    const __m256i half = _mm256_set1_epi64x(1ll << 31);
    const __m256i even = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epu32(v, reciprocal), half), 32);
    // The odd samples' quotients land in the high halves, where they belong.
    const __m256i odd = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(v, 32), reciprocal), half);
    return _mm256_or_si256(even, _mm256_and_si256(odd, _mm256_set1_epi64x((long long)0xFFFFFFFF00000000ull)));
}

/// The first `full / 4 * 4` output pixels of `average_columns_avx2`, four a step: each column of
/// the four blocks loaded as one vector (pixel k's four sums in quarter k) and added in uint16,
/// which holds a block of at most 257 samples of 255. Returns how many pixels it wrote.
__attribute__((target("avx2")))
static int32_t average_column_quads_avx2(const uint16_t *sums, int32_t full, int32_t factor_x, uint64_t reciprocal64, uint8_t *out) {
    const __m256i reciprocal = _mm256_set1_epi64x((long long)reciprocal64);
    // After the packs, 32-bit element 0 is pixel 0, 4 pixel 1, 1 pixel 2, 5 pixel 3.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const size_t block = (size_t)factor_x * 4;
    int32_t x = 0;
    for (; x + 4 <= full; x += 4) {
        const uint16_t *sum = sums + (size_t)x * block;
        __m256i total = _mm256_setzero_si256();
        for (int32_t c = 0; c < factor_x; c++, sum += 4) {
            const __m128i low = _mm_castpd_si128(
                _mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(const void *)sum)), (const double *)(const void *)(sum + block)));
            const __m128i high = _mm_castpd_si128(_mm_loadh_pd(
                _mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(const void *)(sum + 2 * block))),
                (const double *)(const void *)(sum + 3 * block)));
            total = _mm256_add_epi16(total, _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1));
        }
        // Pixels 0 and 1, then 2 and 3, as uint32, divided, and packed back to bytes.
        const __m256i pixels01 = divide_by_reciprocal(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(total)), reciprocal);
        const __m256i pixels23 = divide_by_reciprocal(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(total, 1)), reciprocal);
        const __m256i words = _mm256_packus_epi32(pixels01, pixels23);
        const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words, words), order);
        _mm_storeu_si128((__m128i *)(void *)(out + (size_t)x * 4), _mm256_castsi256_si128(bytes));
    }
    return x;
}

/// `average_columns_uint16_t` with a pixel's four sums added as one vector and divided by the
/// same 32-bit reciprocal, two samples per `vpmuludq`: the same bytes. Blocks of one sample
/// (area 1, whose reciprocal is 2^32) and blocks whose sums could pass 32 bits take the scalar
/// path.
__attribute__((target("avx2")))
static void average_columns_avx2(const uint16_t *sums, int32_t src_width, int32_t factor_x, int32_t rows, uint8_t *out) {
    const int32_t out_width = (src_width + factor_x - 1) / factor_x;
    const int32_t full = src_width / factor_x;
    const uint64_t full_area = (uint64_t)factor_x * (uint64_t)rows;
    if (full_area < 2 || full_area > UINT32_MAX / 255) {
        average_columns_uint16_t(sums, src_width, factor_x, rows, out);
        return;
    }
    const uint64_t full_reciprocal = ((1ull << 32) + full_area / 2) / full_area;
    int32_t x = 0;
    if (full_area <= 257) x = average_column_quads_avx2(sums, full, factor_x, full_reciprocal, out);
    const __m128i reciprocal = _mm_set1_epi64x((long long)full_reciprocal);
    const __m128i half = _mm_set1_epi64x(1ll << 31);
    const __m128i bytes_of_words = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 12, 8, 4, 0);
    for (; x < full; x++) {
        const uint16_t *sum = sums + (size_t)x * factor_x * 4;
        __m128i total = _mm_setzero_si128();
        for (int32_t c = 0; c < factor_x; c++, sum += 4) {
            total = _mm_add_epi32(total, _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(const void *)sum)));
        }
        // Samples 0 and 2, then 1 and 3, times the reciprocal in 64 bits, rounded, shifted down.
        const __m128i even = _mm_srli_epi64(_mm_add_epi64(_mm_mul_epu32(total, reciprocal), half), 32);
        const __m128i odd = _mm_srli_epi64(_mm_add_epi64(_mm_mul_epu32(_mm_srli_epi64(total, 32), reciprocal), half), 32);
        const __m128i values = _mm_or_si128(even, _mm_slli_epi64(odd, 32));
        const int32_t pixel = _mm_cvtsi128_si32(_mm_shuffle_epi8(values, bytes_of_words));
        memcpy(out + (size_t)x * 4, &pixel, sizeof pixel);
    }
    // A partial block at the right edge, if any, with its own area.
    if (full < out_width) {
        const int32_t column0 = full * factor_x;
        average_columns_uint16_t(sums + (size_t)column0 * 4, src_width - column0, factor_x, rows, out + (size_t)full * 4);
    }
}

/// One output row of `yy_box_shrink` from its block's `rows` rows (at most 257), in segments of
/// whole blocks, about 1,000 pixels and a multiple of 8 (32-byte steps), so that the sums stay in
/// the first-level cache between summing and averaging.
__attribute__((target("avx2")))
static void box_shrink_row_avx2(const uint8_t *in, size_t stride, int32_t src_width, int32_t rows, int32_t factor_x,
                                int premultiplying, uint16_t *sums, uint8_t *out) {
    const int32_t segment = factor_x * 8 * (factor_x < 128 ? 128 / factor_x : 1);
    for (int32_t x0 = 0; x0 < src_width; x0 += segment) {
        const int32_t width = segment < src_width - x0 ? segment : src_width - x0;
        // Two copies of the summing loop, each with its choice made at compile time.
        if (premultiplying) {
            sum_rows_avx2(in + (size_t)x0 * 4, stride, rows, (size_t)width * 4, sums, 1);
        } else {
            sum_rows_avx2(in + (size_t)x0 * 4, stride, rows, (size_t)width * 4, sums, 0);
        }
        average_columns_avx2(sums, width, factor_x, rows, out + (size_t)(x0 / factor_x) * 4);
    }
}

#endif

void yy_box_shrink(const uint8_t *src, size_t src_stride, int32_t src_width, int32_t src_height,
                   uint8_t *dst, size_t dst_stride, int32_t factor_x, int32_t factor_y,
                   int32_t out_first, int32_t out_count, int premultiplying, uint32_t *scratch) {
    const size_t row_samples = (size_t)src_width * 4;
    for (int32_t y = out_first; y < out_first + out_count; y++) {
        const int32_t row0 = y * factor_y;
        const int32_t rows = (row0 + factor_y <= src_height ? factor_y : src_height - row0);
        const uint8_t *in = src + (size_t)row0 * src_stride;
        uint8_t *out = dst + (size_t)(y - out_first) * dst_stride;
        // The block's rows summed sample by sample first, then each output pixel's columns.
#if YY_AVX2_PATH
        if (rows <= 257 && yy_pixel_kernels_use_avx2()) {
            box_shrink_row_avx2(in, src_stride, src_width, rows, factor_x, premultiplying, (uint16_t *)(void *)scratch, out);
            continue;
        }
#endif
        memset(scratch, 0, sizeof(uint32_t) * row_samples);
        for (int32_t r = 0; r < rows; r++) {
            const uint8_t *row = in + (size_t)r * src_stride;
            if (!premultiplying) {
                for (size_t i = 0; i < row_samples; i++) scratch[i] += row[i];
                continue;
            }
            for (size_t i = 0; i < row_samples; i += 4) {
                for (int c = 0; c < 3; c++) scratch[i + (size_t)c] += premultiplied_sample(row[i + (size_t)c], row[i + 3]);
                scratch[i + 3] += row[i + 3];
            }
        }
        average_columns_uint32_t(scratch, src_width, factor_x, rows, out);
    }
}

int yy_is_opaque(const uint8_t *pixels, size_t stride, int32_t width, int32_t rows) {
    for (int32_t y = 0; y < rows; y++) {
        const uint8_t *p = pixels + (size_t)y * stride + 3;
        uint8_t all = 255;
        for (int32_t x = 0; x < width; x++) all &= p[(size_t)x * 4];
        if (all != 255) return 0;
    }
    return 1;
}

static void premultiply_portable(const uint8_t *src, uint8_t *dst, int32_t width) {
    for (int32_t x = 0; x < width; x++, src += 4, dst += 4) {
        for (int c = 0; c < 3; c++) dst[c] = (uint8_t)premultiplied_sample(src[c], src[3]);
        dst[3] = src[3];
    }
}

#if YY_AVX2_PATH

/// Eight pixels at a time, as `premultiplied_halves_avx2` works them out.
__attribute__((target("avx2")))
static void premultiply_avx2(const uint8_t *src, uint8_t *dst, int32_t width) {
    int32_t x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256i halves[2];
        premultiplied_halves_avx2(_mm256_loadu_si256((const __m256i *)(const void *)(src + x * 4)), halves);
        _mm256_storeu_si256((__m256i *)(void *)(dst + x * 4), _mm256_packus_epi16(halves[0], halves[1]));
    }
    premultiply_portable(src + x * 4, dst + x * 4, width - x);
}

#endif

void yy_premultiply(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, int32_t width, int32_t rows) {
    for (int32_t y = 0; y < rows; y++) {
        const uint8_t *in = src + (size_t)y * src_stride;
        uint8_t *out = dst + (size_t)y * dst_stride;
#if YY_AVX2_PATH
        if (yy_pixel_kernels_use_avx2()) {
            premultiply_avx2(in, out, width);
            continue;
        }
#endif
        premultiply_portable(in, out, width);
    }
}

static void unpremultiply_portable(uint8_t *p, int32_t width) {
    for (int32_t x = 0; x < width; x++, p += 4) {
        const uint32_t a = p[3];
        if (a == 255) continue;
        if (a == 0) {
            p[0] = p[1] = p[2] = 0;
            continue;
        }
        for (int c = 0; c < 3; c++) {
            const uint32_t value = (p[c] * 255u + a / 2) / a;
            p[c] = (uint8_t)(value > 255 ? 255 : value);
        }
    }
}

#if YY_AVX2_PATH

/// Eight pixels at a time, skipping eight opaque ones: (c * 255 + a / 2) / a in single precision,
/// which gives the portable loop's integer quotient exactly. The numerator is an integer below
/// 2^16, so exact in a float; when the true quotient is not a whole number it lies at least 1 / a
/// below the next one, and the division's rounding error, at most (65,152 / a) * 2^-24, is far
/// smaller, so truncating the rounded quotient gives the same integer.
__attribute__((target("avx2")))
static void unpremultiply_avx2(uint8_t *p, int32_t width) {
    const __m256i alphas = _mm256_set1_epi32((int)0xFF000000u);
    const __m256i alpha_of = _mm256_setr_epi32(3, 3, 3, 3, 7, 7, 7, 7);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256 v255 = _mm256_set1_ps(255.0f);
    const __m256i max = _mm256_set1_epi32(255), zero = _mm256_setzero_si256();
    int32_t x = 0;
    for (; x + 8 <= width; x += 8) {
        uint8_t *pixels = p + (size_t)x * 4;
        const __m256i bytes = _mm256_loadu_si256((const __m256i *)(const void *)pixels);
        if (_mm256_testc_si256(bytes, alphas)) continue;  // every alpha 255: colour stays
        __m256i quotients[4];
        for (int k = 0; k < 4; k++) {
            // Two pixels as eight int32 samples, each beside its pixel's alpha.
            const __m256i samples = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(pixels + k * 8)));
            const __m256i alpha = _mm256_permutevar8x32_epi32(samples, alpha_of);
            const __m256 numerator = _mm256_add_ps(
                _mm256_mul_ps(_mm256_cvtepi32_ps(samples), v255), _mm256_cvtepi32_ps(_mm256_srli_epi32(alpha, 1)));
            __m256i q = _mm256_min_epi32(_mm256_cvttps_epi32(_mm256_div_ps(numerator, _mm256_cvtepi32_ps(alpha))), max);
            // Under alpha 0 the quotient is infinite or not a number (either converts to INT_MIN): colour 0.
            q = _mm256_andnot_si256(_mm256_cmpeq_epi32(alpha, zero), q);
            quotients[k] = _mm256_blend_epi32(q, samples, 0x88);  // alpha itself unchanged
        }
        // After the packs, 32-bit element 0 is pixel 0, 1 pixel 2, 2 pixel 4, 4 pixel 1, and so on.
        const __m256i words01 = _mm256_packus_epi32(quotients[0], quotients[1]);
        const __m256i words23 = _mm256_packus_epi32(quotients[2], quotients[3]);
        const __m256i out = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words01, words23), order);
        _mm256_storeu_si256((__m256i *)(void *)pixels, out);
    }
    unpremultiply_portable(p + (size_t)x * 4, width - x);
}

#endif

void yy_unpremultiply(uint8_t *pixels, size_t stride, int32_t width, int32_t rows) {
    for (int32_t y = 0; y < rows; y++) {
        uint8_t *p = pixels + (size_t)y * stride;
#if YY_AVX2_PATH
        if (yy_pixel_kernels_use_avx2()) {
            unpremultiply_avx2(p, width);
            continue;
        }
#endif
        unpremultiply_portable(p, width);
    }
}
