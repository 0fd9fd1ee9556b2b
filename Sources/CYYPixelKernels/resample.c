// Separable fixed-point convolution of RGBA8 rows: a portable version, and AVX2 versions chosen at
// run time on x86-64 (int16 taps times widened samples, two taps per `vpmaddwd`, as Pillow-SIMD and
// fast_image_resize do). Both give the same bytes: the AVX2 code sums the same products in int32.
#include "yy_pixel_kernels.h"
#include "simd.h"

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

#if YY_AVX2_PATH

/// Taps `k[t]` and `k[t + 1]` as one int32, the operand `vpmaddwd` pairs with two samples, read from memory (little-endian: `k[t]` in the low
/// half), so that broadcasting it is a load, not a shuffle. Rows of taps have an even length, zero
/// past their count, so `t + 1` is always inside the row.
static inline int32_t tap_pair_at(const int16_t *k, int32_t t) {
    int32_t pair;
    memcpy(&pair, k + t, sizeof pair);
    return pair;
}

/// One output pixel of one row: four taps a step (pixels 0-1 in the low lane, 2-3 in the high).
__attribute__((target("avx2")))
static inline uint32_t horizontal_pixel_avx2(const uint8_t *p, const int16_t *k, int32_t count, int32_t precision) {
    const __m256i spread4 = _mm256_set_epi8(
        -1, 15, -1, 11, -1, 14, -1, 10, -1, 13, -1, 9, -1, 12, -1, 8,
        -1, 7, -1, 3, -1, 6, -1, 2, -1, 5, -1, 1, -1, 4, -1, 0);
    const __m128i spread2 = _mm_set_epi8(-1, 7, -1, 3, -1, 6, -1, 2, -1, 5, -1, 1, -1, 4, -1, 0);
    __m256i wide = _mm256_setzero_si256();
    int32_t t = 0;
    for (; t + 4 <= count; t += 4) {
        __m256i pixels = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p + t * 4)));
        __m256i taps = _mm256_inserti128_si256(_mm256_set1_epi32(tap_pair_at(k, t)), _mm_set1_epi32(tap_pair_at(k, t + 2)), 1);
        wide = _mm256_add_epi32(wide, _mm256_madd_epi16(_mm256_shuffle_epi8(pixels, spread4), taps));
    }
    __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    sum = _mm_add_epi32(sum, _mm_set1_epi32(1 << (precision - 1)));
    for (; t < count; t += 2) {
        // An odd last tap pairs with the zero after it; the pixel read with it must exist, so a
        // lone last pixel is widened alone.
        __m128i pixels;
        if (t + 1 < count) {
            pixels = _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)(const void *)(p + t * 4)), spread2);
        } else {
            int32_t one;
            memcpy(&one, p + t * 4, sizeof one);
            pixels = _mm_shuffle_epi8(_mm_cvtsi32_si128(one), spread2);
        }
        sum = _mm_add_epi32(sum, _mm_madd_epi16(pixels, _mm_set1_epi32(tap_pair_at(k, t))));
    }
    sum = _mm_srai_epi32(sum, precision);
    sum = _mm_packs_epi32(sum, sum);
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(sum, sum));
}

/// The `vpshufb` mask that widens pixels 0 and 1 of each 128-bit lane to int16s, channel by
/// channel in pairs (R0 R1, G0 G1, ...), the order `vpmaddwd` pairs with a tap pair.
__attribute__((target("avx2")))
static inline __m256i spread_pixels01(void) {
    return _mm256_set_epi8(
        -1, 7, -1, 3, -1, 6, -1, 2, -1, 5, -1, 1, -1, 4, -1, 0,
        -1, 7, -1, 3, -1, 6, -1, 2, -1, 5, -1, 1, -1, 4, -1, 0);
}

/// `spread_pixels01` for pixels 2 and 3 of each lane.
__attribute__((target("avx2")))
static inline __m256i spread_pixels23(void) {
    return _mm256_set_epi8(
        -1, 15, -1, 11, -1, 14, -1, 10, -1, 13, -1, 9, -1, 12, -1, 8,
        -1, 15, -1, 11, -1, 14, -1, 10, -1, 13, -1, 9, -1, 12, -1, 8);
}

/// The two pixels at `p` as 8 bytes, or when `pair` is 0 the one pixel there (the high bytes 0,
/// nothing past it read). Each copy has a constant size, so it compiles to one load: a copy of a
/// size known only at run time is a call to `memcpy`.
static inline int64_t load_pixels(const uint8_t *p, int pair) {
    if (pair) {
        int64_t two;
        memcpy(&two, p, sizeof two);
        return two;
    }
    uint32_t one;
    memcpy(&one, p, sizeof one);
    return (int64_t)one;
}

/// One output pixel of two rows at once, as Pillow-SIMD does: row 0 in the low lane, row 1 in the
/// high, so one broadcast of each tap pair serves both (a load, not a shuffle).
__attribute__((target("avx2")))
static inline void horizontal_pixel_pair_avx2(const uint8_t *p0, const uint8_t *p1, const int16_t *k, int32_t count,
                                              int32_t precision, uint32_t *out0, uint32_t *out1) {
    const __m256i pixels01 = spread_pixels01(), pixels23 = spread_pixels23();
    __m256i sum = _mm256_set1_epi32(1 << (precision - 1));
    int32_t t = 0;
    for (; t + 4 <= count; t += 4) {
        __m256i source = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p0 + t * 4))),
            _mm_loadu_si128((const __m128i *)(const void *)(p1 + t * 4)), 1);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_shuffle_epi8(source, pixels01), _mm256_set1_epi32(tap_pair_at(k, t))));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_shuffle_epi8(source, pixels23), _mm256_set1_epi32(tap_pair_at(k, t + 2))));
    }
    for (; t < count; t += 2) {
        const int pair = t + 1 < count;
        const int64_t a = load_pixels(p0 + t * 4, pair), b = load_pixels(p1 + t * 4, pair);
        __m256i source = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_cvtsi64_si128(a)), _mm_cvtsi64_si128(b), 1);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_shuffle_epi8(source, pixels01), _mm256_set1_epi32(tap_pair_at(k, t))));
    }
    sum = _mm256_srai_epi32(sum, precision);
    __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(sum, sum), sum);
    *out0 = (uint32_t)_mm256_extract_epi32(bytes, 0);
    *out1 = (uint32_t)_mm256_extract_epi32(bytes, 4);
}

/// One output pixel of four rows at once, as Pillow-SIMD's horizontal pass: rows 0-1 and 2-3 in
/// two registers, each tap pair broadcast once for both, and two sums that do not wait on each
/// other.
__attribute__((target("avx2")))
static inline void horizontal_pixel_quad_avx2(const uint8_t *p0, size_t stride, const int16_t *k, int32_t count,
                                              int32_t precision, uint32_t *out0, size_t out_stride) {
    const __m256i pixels01 = spread_pixels01(), pixels23 = spread_pixels23();
    const uint8_t *p1 = p0 + stride, *p2 = p1 + stride, *p3 = p2 + stride;
    __m256i sum01 = _mm256_set1_epi32(1 << (precision - 1)), sum23 = sum01;
    int32_t t = 0;
    for (; t + 4 <= count; t += 4) {
        const __m256i rows01 = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p0 + t * 4))),
            _mm_loadu_si128((const __m128i *)(const void *)(p1 + t * 4)), 1);
        const __m256i rows23 = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p2 + t * 4))),
            _mm_loadu_si128((const __m128i *)(const void *)(p3 + t * 4)), 1);
        const __m256i taps0 = _mm256_set1_epi32(tap_pair_at(k, t)), taps2 = _mm256_set1_epi32(tap_pair_at(k, t + 2));
        sum01 = _mm256_add_epi32(sum01, _mm256_madd_epi16(_mm256_shuffle_epi8(rows01, pixels01), taps0));
        sum23 = _mm256_add_epi32(sum23, _mm256_madd_epi16(_mm256_shuffle_epi8(rows23, pixels01), taps0));
        sum01 = _mm256_add_epi32(sum01, _mm256_madd_epi16(_mm256_shuffle_epi8(rows01, pixels23), taps2));
        sum23 = _mm256_add_epi32(sum23, _mm256_madd_epi16(_mm256_shuffle_epi8(rows23, pixels23), taps2));
    }
    for (; t < count; t += 2) {
        // As in the two-row step: a lone last pixel is read alone.
        const int pair = t + 1 < count;
        const int64_t a = load_pixels(p0 + t * 4, pair), b = load_pixels(p1 + t * 4, pair);
        const int64_t c = load_pixels(p2 + t * 4, pair), d = load_pixels(p3 + t * 4, pair);
        const __m256i taps = _mm256_set1_epi32(tap_pair_at(k, t));
        const __m256i rows01 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_cvtsi64_si128(a)), _mm_cvtsi64_si128(b), 1);
        const __m256i rows23 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_cvtsi64_si128(c)), _mm_cvtsi64_si128(d), 1);
        sum01 = _mm256_add_epi32(sum01, _mm256_madd_epi16(_mm256_shuffle_epi8(rows01, pixels01), taps));
        sum23 = _mm256_add_epi32(sum23, _mm256_madd_epi16(_mm256_shuffle_epi8(rows23, pixels01), taps));
    }
    // Each lane's four int32 are one pixel: packed to bytes, rows 0 and 1 are int32 0 and 4 of
    // the first register, rows 2 and 3 of the second.
    sum01 = _mm256_srai_epi32(sum01, precision);
    sum23 = _mm256_srai_epi32(sum23, precision);
    const __m256i bytes01 = _mm256_packus_epi16(_mm256_packs_epi32(sum01, sum01), sum01);
    const __m256i bytes23 = _mm256_packus_epi16(_mm256_packs_epi32(sum23, sum23), sum23);
    const uint32_t pixels[4] = {
        (uint32_t)_mm256_extract_epi32(bytes01, 0), (uint32_t)_mm256_extract_epi32(bytes01, 4),
        (uint32_t)_mm256_extract_epi32(bytes23, 0), (uint32_t)_mm256_extract_epi32(bytes23, 4)};
    uint8_t *out = (uint8_t *)(void *)out0;
    for (int row = 0; row < 4; row++) memcpy(out + (size_t)row * out_stride, &pixels[row], sizeof pixels[row]);
}

__attribute__((target("avx2")))
static void horizontal_avx2(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                            int32_t rows, const yy_resample_axis *axis) {
    int32_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const uint8_t *in = src + (size_t)r * src_stride;
        uint32_t *out = (uint32_t *)(void *)(dst + (size_t)r * dst_stride);
        for (int32_t x = 0; x < axis->out_size; x++) {
            horizontal_pixel_quad_avx2(in + (size_t)axis->first[x] * 4, src_stride, axis->coefs + (size_t)x * axis->taps,
                                       axis->count[x], axis->precision, out + x, dst_stride);
        }
    }
    for (; r + 2 <= rows; r += 2) {
        const uint8_t *in0 = src + (size_t)r * src_stride, *in1 = in0 + src_stride;
        uint32_t *out0 = (uint32_t *)(void *)(dst + (size_t)r * dst_stride);
        uint32_t *out1 = (uint32_t *)(void *)(dst + (size_t)(r + 1) * dst_stride);
        for (int32_t x = 0; x < axis->out_size; x++) {
            const size_t first = (size_t)axis->first[x] * 4;
            horizontal_pixel_pair_avx2(in0 + first, in1 + first, axis->coefs + (size_t)x * axis->taps, axis->count[x],
                                       axis->precision, out0 + x, out1 + x);
        }
    }
    for (; r < rows; r++) {
        const uint8_t *in = src + (size_t)r * src_stride;
        uint32_t *out = (uint32_t *)(void *)(dst + (size_t)r * dst_stride);
        for (int32_t x = 0; x < axis->out_size; x++) {
            out[x] = horizontal_pixel_avx2(in + (size_t)axis->first[x] * 4, axis->coefs + (size_t)x * axis->taps,
                                           axis->count[x], axis->precision);
        }
    }
}

/// One 16-byte block of a vertical pass: `count` rows from `src` (stride `src_stride`) weighed by `k`.
__attribute__((target("avx2")))
static inline __m128i vertical_block16(const uint8_t *src, size_t src_stride, const int16_t *k, int32_t count, int32_t precision) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i low = _mm256_set1_epi32(1 << (precision - 1)), high = low;
    int32_t t = 0;
    // Each pair of source rows is interleaved as int16 and multiplied by its pair of taps in one
    // `vpmaddwd`.
    for (; t + 2 <= count; t += 2) {
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(src + (size_t)t * src_stride)));
        __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(src + (size_t)(t + 1) * src_stride)));
        __m256i taps = _mm256_set1_epi32(tap_pair_at(k, t));
        low = _mm256_add_epi32(low, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, c), taps));
        high = _mm256_add_epi32(high, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, c), taps));
    }
    if (t < count) {
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(src + (size_t)t * src_stride)));
        __m256i taps = _mm256_set1_epi32(tap_pair_at(k, t));
        low = _mm256_add_epi32(low, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, zero), taps));
        high = _mm256_add_epi32(high, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, zero), taps));
    }
    // unpacklo/hi and packs work per 128-bit lane, so packing undoes the interleave: the int16s
    // come out in source order; packus then leaves bytes 0-7 in qword 0 and 8-15 in qword 2.
    __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(low, precision), _mm256_srai_epi32(high, precision));
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08));
}

/// One 32-byte block of a vertical pass, as Pillow-SIMD lays it out: the bytes of two rows are
/// interleaved, then widened against zero, so each `vpmaddwd` gets (row a, row b) sample pairs
/// with three shuffles per 32 products instead of five.
__attribute__((target("avx2")))
static inline __m256i vertical_block32(const uint8_t *src, size_t src_stride, const int16_t *k, int32_t count, int32_t precision) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i bias = _mm256_set1_epi32(1 << (precision - 1));
    __m256i s0 = bias, s1 = bias, s2 = bias, s3 = bias;
    int32_t t = 0;
    for (; t < count; t += 2) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + (size_t)t * src_stride));
        __m256i b = t + 1 < count ? _mm256_loadu_si256((const __m256i *)(const void *)(src + (size_t)(t + 1) * src_stride)) : zero;
        __m256i taps = _mm256_set1_epi32(tap_pair_at(k, t));
        __m256i low = _mm256_unpacklo_epi8(a, b), high = _mm256_unpackhi_epi8(a, b);
        s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_unpacklo_epi8(low, zero), taps));
        s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_unpackhi_epi8(low, zero), taps));
        s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_unpacklo_epi8(high, zero), taps));
        s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(_mm256_unpackhi_epi8(high, zero), taps));
    }
    // Every shuffle above stays within its 128-bit lane, and so do the packs: bytes come out in
    // source order.
    __m256i first = _mm256_packs_epi32(_mm256_srai_epi32(s0, precision), _mm256_srai_epi32(s1, precision));
    __m256i second = _mm256_packs_epi32(_mm256_srai_epi32(s2, precision), _mm256_srai_epi32(s3, precision));
    return _mm256_packus_epi16(first, second);
}

__attribute__((target("avx2")))
static void vertical_row_avx2(const uint8_t *src, size_t src_stride, uint8_t *out, size_t row_bytes,
                              const int16_t *k, int32_t count, int32_t precision) {
    size_t b = 0;
    for (; b + 32 <= row_bytes; b += 32) {
        _mm256_storeu_si256((__m256i *)(void *)(out + b), vertical_block32(src + b, src_stride, k, count, precision));
    }
    for (; b + 16 <= row_bytes; b += 16) {
        _mm_storeu_si128((__m128i *)(void *)(out + b), vertical_block16(src + b, src_stride, k, count, precision));
    }
    vertical_row_portable(src, src_stride, out, b, row_bytes, k, count, precision);
}

#endif



void yy_resample_horizontal(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                            int32_t rows, const yy_resample_axis *axis) {
#if YY_AVX2_PATH
    if (yy_pixel_kernels_use_avx2()) {
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
#if YY_AVX2_PATH
        if (yy_pixel_kernels_use_avx2()) {
            vertical_row_avx2(rows, src_stride, out, row_bytes, k, axis->count[y], axis->precision);
            continue;
        }
#endif
        vertical_row_portable(rows, src_stride, out, 0, row_bytes, k, axis->count[y], axis->precision);
    }
}
