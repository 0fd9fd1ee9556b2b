// Separable fixed-point convolution of RGBA8 rows: a portable version, and AVX2 versions chosen at
// run time on x86-64 (int16 taps times widened samples, two taps per `vpmaddwd`, as Pillow-SIMD and
// fast_image_resize do). Both give the same bytes: the AVX2 code sums the same products in int32.
#include "yy_pixel_kernels.h"

#include <string.h>

static inline uint8_t clamp_shift(int32_t sum, int32_t precision) {
    int32_t value = sum >> precision;
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

static void horizontal_portable(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                                int32_t rows, const yy_resample_axis *axis) {
    const int32_t bias = 1 << (axis->precision - 1);
    for (int32_t r = 0; r < rows; r++) {
        const uint8_t *in = src + (size_t)r * src_stride;
        uint8_t *out = dst + (size_t)r * dst_stride;
        for (int32_t x = 0; x < axis->out_size; x++) {
            const int16_t *k = axis->coefs + (size_t)x * axis->taps;
            const uint8_t *p = in + (size_t)axis->first[x] * 4;
            int32_t s0 = bias, s1 = bias, s2 = bias, s3 = bias;
            for (int32_t t = 0; t < axis->count[x]; t++, p += 4) {
                s0 += p[0] * k[t];
                s1 += p[1] * k[t];
                s2 += p[2] * k[t];
                s3 += p[3] * k[t];
            }
            out[x * 4 + 0] = clamp_shift(s0, axis->precision);
            out[x * 4 + 1] = clamp_shift(s1, axis->precision);
            out[x * 4 + 2] = clamp_shift(s2, axis->precision);
            out[x * 4 + 3] = clamp_shift(s3, axis->precision);
        }
    }
}

static void vertical_row_portable(const uint8_t *src, size_t src_stride, uint8_t *out, size_t from, size_t row_bytes,
                                  const int16_t *k, int32_t count, int32_t precision) {
    const int32_t bias = 1 << (precision - 1);
    for (size_t b = from; b < row_bytes; b++) {
        int32_t sum = bias;
        for (int32_t t = 0; t < count; t++) sum += src[(size_t)t * src_stride + b] * k[t];
        out[b] = clamp_shift(sum, precision);
    }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define YY_HAS_AVX2_PATH 1

/// Two adjacent int16 taps as one int32, the operand `vpmaddwd` pairs with two samples.
static inline int32_t tap_pair(int16_t a, int16_t b) {
    return (int32_t)(((uint32_t)(uint16_t)b << 16) | (uint16_t)a);
}

__attribute__((target("avx2")))
static void horizontal_avx2(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                            int32_t rows, const yy_resample_axis *axis) {
    // Four source pixels, loaded once into both 128-bit lanes, become (r0 r1 g0 g1 b0 b1 a0 a1) as
    // int16 in the low lane and the same for pixels 2 and 3 in the high lane.
    const __m256i spread4 = _mm256_set_epi8(
        -1, 15, -1, 11, -1, 14, -1, 10, -1, 13, -1, 9, -1, 12, -1, 8,
        -1, 7, -1, 3, -1, 6, -1, 2, -1, 5, -1, 1, -1, 4, -1, 0);
    const __m128i spread2 = _mm_set_epi8(-1, 7, -1, 3, -1, 6, -1, 2, -1, 5, -1, 1, -1, 4, -1, 0);
    const __m256i pair_index = _mm256_set_epi32(1, 1, 1, 1, 0, 0, 0, 0);
    const __m128i bias = _mm_set1_epi32(1 << (axis->precision - 1));
    for (int32_t r = 0; r < rows; r++) {
        const uint8_t *in = src + (size_t)r * src_stride;
        uint32_t *out = (uint32_t *)(void *)(dst + (size_t)r * dst_stride);
        for (int32_t x = 0; x < axis->out_size; x++) {
            const int16_t *k = axis->coefs + (size_t)x * axis->taps;
            const uint8_t *p = in + (size_t)axis->first[x] * 4;
            const int32_t count = axis->count[x];
            __m256i wide = _mm256_setzero_si256();
            int32_t t = 0;
            for (; t + 4 <= count; t += 4) {
                __m256i pixels = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p + t * 4)));
                int64_t four_taps;
                memcpy(&four_taps, k + t, sizeof four_taps);
                __m256i taps = _mm256_permutevar8x32_epi32(_mm256_set1_epi64x(four_taps), pair_index);
                wide = _mm256_add_epi32(wide, _mm256_madd_epi16(_mm256_shuffle_epi8(pixels, spread4), taps));
            }
            __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
            sum = _mm_add_epi32(sum, bias);
            for (; t + 2 <= count; t += 2) {
                __m128i pixels = _mm_loadl_epi64((const __m128i *)(const void *)(p + t * 4));
                __m128i taps = _mm_set1_epi32(tap_pair(k[t], k[t + 1]));
                sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_shuffle_epi8(pixels, spread2), taps));
            }
            if (t < count) {
                int32_t one;
                memcpy(&one, p + t * 4, sizeof one);
                __m128i pixel = _mm_cvtepu8_epi32(_mm_cvtsi32_si128(one));
                sum = _mm_add_epi32(sum, _mm_mullo_epi32(pixel, _mm_set1_epi32(k[t])));
            }
            sum = _mm_srai_epi32(sum, axis->precision);
            sum = _mm_packs_epi32(sum, sum);
            out[x] = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(sum, sum));
        }
    }
}

__attribute__((target("avx2")))
static void vertical_row_avx2(const uint8_t *src, size_t src_stride, uint8_t *out, size_t row_bytes,
                              const int16_t *k, int32_t count, int32_t precision) {
    const __m256i bias = _mm256_set1_epi32(1 << (precision - 1));
    const __m256i zero = _mm256_setzero_si256();
    size_t b = 0;
    // 16 bytes at a time: each pair of source rows is interleaved as int16 and multiplied by its
    // pair of taps in one `vpmaddwd`.
    for (; b + 16 <= row_bytes; b += 16) {
        __m256i low = bias, high = bias;
        int32_t t = 0;
        for (; t + 2 <= count; t += 2) {
            __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(src + (size_t)t * src_stride + b)));
            __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(src + (size_t)(t + 1) * src_stride + b)));
            __m256i taps = _mm256_set1_epi32(tap_pair(k[t], k[t + 1]));
            low = _mm256_add_epi32(low, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, c), taps));
            high = _mm256_add_epi32(high, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, c), taps));
        }
        if (t < count) {
            __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(src + (size_t)t * src_stride + b)));
            __m256i taps = _mm256_set1_epi32(tap_pair(k[t], 0));
            low = _mm256_add_epi32(low, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, zero), taps));
            high = _mm256_add_epi32(high, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, zero), taps));
        }
        // unpacklo/hi and packs work per 128-bit lane, so packing undoes the interleave: the
        // int16s come out in source order; packus then leaves bytes 0-7 in qword 0, 8-15 in qword 2.
        __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(low, precision), _mm256_srai_epi32(high, precision));
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
        _mm_storeu_si128((__m128i *)(void *)(out + b), _mm256_castsi256_si128(bytes));
    }
    vertical_row_portable(src, src_stride, out, b, row_bytes, k, count, precision);
}

static int avx2_available(void) {
    static int cached = -1;  // benign race: every thread computes the same answer
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return cached;
}
#else
#define YY_HAS_AVX2_PATH 0
static int avx2_available(void) { return 0; }
#endif

int yy_pixel_kernels_use_avx2(void) { return avx2_available(); }

void yy_resample_horizontal(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                            int32_t rows, const yy_resample_axis *axis) {
#if YY_HAS_AVX2_PATH
    if (avx2_available()) {
        horizontal_avx2(src, src_stride, dst, dst_stride, rows, axis);
        return;
    }
#endif
    horizontal_portable(src, src_stride, dst, dst_stride, rows, axis);
}

void yy_resample_vertical(const uint8_t *src, size_t src_stride, int32_t src_first_row, uint8_t *dst,
                          size_t dst_stride, int32_t out_first, int32_t out_count, size_t row_bytes,
                          const yy_resample_axis *axis) {
    for (int32_t y = out_first; y < out_first + out_count; y++) {
        const uint8_t *rows = src + (size_t)(axis->first[y] - src_first_row) * src_stride;
        const int16_t *k = axis->coefs + (size_t)y * axis->taps;
        uint8_t *out = dst + (size_t)(y - out_first) * dst_stride;
#if YY_HAS_AVX2_PATH
        if (avx2_available()) {
            vertical_row_avx2(rows, src_stride, out, row_bytes, k, axis->count[y], axis->precision);
            continue;
        }
#endif
        vertical_row_portable(rows, src_stride, out, 0, row_bytes, k, axis->count[y], axis->precision);
    }
}
