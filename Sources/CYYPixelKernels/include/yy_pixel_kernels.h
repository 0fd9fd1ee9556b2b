#ifndef YYKIT_PIXEL_KERNELS_H
#define YYKIT_PIXEL_KERNELS_H
#include <stddef.h>
#include <stdint.h>

/// The resampling filter along one axis, as fixed-point taps: output sample `i` is
/// `sum(source[first[i] + t] * coefs[i * taps + t]) >> precision` for `t` in `0..<count[i]`,
/// rounded and clamped to 0...255. Built and checked by YYImage's `ResampleAxis` (Swift); the
/// kernels below trust it: every `first[i] + count[i]` lies within the source, `count[i]` is at
/// most `taps`, which is even (coefficients past `count[i]` are zero: the kernels read taps in
/// pairs), and the sum of any sample times the coefficients fits in 32 bits.
typedef struct {
    int32_t out_size;
    int32_t taps;
    int32_t precision;
    const int32_t *first;
    const int32_t *count;
    const int16_t *coefs;
} yy_resample_axis;

/// Resamples `rows` rows of RGBA8 pixels horizontally: row `r` of `src` (stride `src_stride`) to
/// row `r` of `dst` (`axis->out_size` pixels, stride `dst_stride`).
void yy_resample_horizontal(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                            int32_t rows, const yy_resample_axis *axis);

/// Resamples vertically, output rows `out_first ..< out_first + out_count` of `axis`: each is a
/// weighted sum of rows of `src`, whose row 0 is source row `src_first_row`. `row_bytes` bytes of
/// each row are filtered (width * 4).
void yy_resample_vertical(const uint8_t *src, size_t src_stride, int32_t src_first_row, uint8_t *dst,
                          size_t dst_stride, int32_t out_first, int32_t out_count, size_t row_bytes,
                          const yy_resample_axis *axis);

/// Averages blocks of `factor_x` x `factor_y` RGBA8 pixels (an integer box shrink): output row `y`
/// in `out_first ..< out_first + out_count` averages source rows `y * factor_y ..<` (fewer at the
/// bottom edge, `src_height` rows in all), output column `x` the columns `x * factor_x ..<` (fewer
/// at the right edge, `src_width` in all). With `premultiplying` nonzero, colour is multiplied by
/// alpha as it is read (as `yy_premultiply` rounds it): the same bytes as premultiplying the
/// source first. `scratch` holds `4 * src_width` sums.
void yy_box_shrink(const uint8_t *src, size_t src_stride, int32_t src_width, int32_t src_height,
                   uint8_t *dst, size_t dst_stride, int32_t factor_x, int32_t factor_y,
                   int32_t out_first, int32_t out_count, int premultiplying, uint32_t *scratch);

/// 1 when every pixel's alpha is 255, else 0.
int yy_is_opaque(const uint8_t *pixels, size_t stride, int32_t width, int32_t rows);

/// Writes `width` pixels of each of `rows` rows of `src` to `dst` with colour multiplied by alpha
/// (rounded: c * a / 255). `dst` may be `src` (in place), but the two may not otherwise overlap.
void yy_premultiply(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, int32_t width, int32_t rows);

/// Divides colour by alpha in place (rounded, clamped; colour under alpha 0 becomes 0).
void yy_unpremultiply(uint8_t *pixels, size_t stride, int32_t width, int32_t rows);

/// Whether the AVX2 kernels run on the calling thread: on an x86-64 processor with AVX2, unless
/// the environment variable YY_PIXEL_KERNELS is "portable" (read once, for the process) or this
/// thread chose the portable loops. Every kernel asks it. Both paths give the same bytes.
int yy_pixel_kernels_use_avx2(void);

/// The calling thread's choice, from its next kernel call on: 0 the portable loops, 1 AVX2 where
/// the process may use it, -1 the process's choice again. For tests that compare the two paths
/// (as libvips' vips_vector_set_enabled(), but per thread, so the rest of the process keeps its
/// speed); kernels that split their work across threads do not carry it to the others.
void yy_pixel_kernels_set_simd_on_this_thread(int choice);

#endif
