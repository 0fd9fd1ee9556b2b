// Whole-image pixel loops that are too slow in unoptimised Swift and simple enough to trust in C:
// the integer box shrink and alpha (un)premultiplication. Plain loops the compiler vectorises.
#include "yy_pixel_kernels.h"

#include <string.h>

void yy_box_shrink(const uint8_t *src, size_t src_stride, int32_t src_width, int32_t src_height,
                   uint8_t *dst, size_t dst_stride, int32_t factor_x, int32_t factor_y,
                   int32_t out_first, int32_t out_count, uint32_t *scratch) {
    const int32_t out_width = (src_width + factor_x - 1) / factor_x;
    for (int32_t y = out_first; y < out_first + out_count; y++) {
        const int32_t row0 = y * factor_y;
        const int32_t rows = (row0 + factor_y <= src_height ? factor_y : src_height - row0);
        memset(scratch, 0, sizeof(uint32_t) * 4 * (size_t)out_width);
        for (int32_t r = 0; r < rows; r++) {
            const uint8_t *in = src + (size_t)(row0 + r) * src_stride;
            for (int32_t x = 0; x < out_width; x++) {
                const int32_t column0 = x * factor_x;
                const int32_t columns = column0 + factor_x <= src_width ? factor_x : src_width - column0;
                const uint8_t *p = in + (size_t)column0 * 4;
                uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                for (int32_t c = 0; c < columns; c++, p += 4) {
                    s0 += p[0]; s1 += p[1]; s2 += p[2]; s3 += p[3];
                }
                uint32_t *sum = scratch + (size_t)x * 4;
                sum[0] += s0; sum[1] += s1; sum[2] += s2; sum[3] += s3;
            }
        }
        uint8_t *out = dst + (size_t)(y - out_first) * dst_stride;
        for (int32_t x = 0; x < out_width; x++) {
            const int32_t column0 = x * factor_x;
            const uint32_t columns = (uint32_t)(column0 + factor_x <= src_width ? factor_x : src_width - column0);
            const uint64_t area = (uint64_t)columns * (uint64_t)rows;
            // Rounded division by the block's area through a 32-bit reciprocal.
            const uint64_t reciprocal = ((1ull << 32) + area / 2) / area;
            for (int c = 0; c < 4; c++) {
                out[x * 4 + c] = (uint8_t)(((uint64_t)scratch[x * 4 + c] * reciprocal + (1ull << 31)) >> 32);
            }
        }
    }
}

void yy_premultiply(uint8_t *pixels, size_t stride, int32_t width, int32_t rows) {
    for (int32_t y = 0; y < rows; y++) {
        uint8_t *p = pixels + (size_t)y * stride;
        for (int32_t x = 0; x < width; x++, p += 4) {
            const uint32_t a = p[3];
            // x * a / 255 rounded, exactly: t = x * a + 128; (t + (t >> 8)) >> 8.
            for (int c = 0; c < 3; c++) {
                const uint32_t t = p[c] * a + 128;
                p[c] = (uint8_t)((t + (t >> 8)) >> 8);
            }
        }
    }
}

void yy_unpremultiply(uint8_t *pixels, size_t stride, int32_t width, int32_t rows) {
    for (int32_t y = 0; y < rows; y++) {
        uint8_t *p = pixels + (size_t)y * stride;
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
}
