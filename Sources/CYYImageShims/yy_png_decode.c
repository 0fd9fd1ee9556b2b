#include "yy_png_decode.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t width;
    uint32_t height;
    uint8_t *pixels;
    size_t stride;
    /// With `on_band` set, `pixels` holds `band_rows` rows, handed over each time they are full.
    uint32_t band_rows;
    yy_png_band_ready on_band;
    void *band_context;
    int passes;
    yy_png_should_stop should_stop;
    void *stop_context;
    uint32_t rows_since_stop_check;
    yy_png_decode_result *result;
} decode_state;

static void on_error(png_structp png, png_const_charp message) {
    decode_state *state = (decode_state *)png_get_error_ptr(png);
    snprintf(state->result->message, sizeof state->result->message, "%s", message);
    state->result->failed = 1;
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    // Warnings (bad ancillary CRCs, unknown chunks) do not change the pixels; stay quiet like
    // a library should.
    (void)png;
    (void)message;
}

static void on_info(png_structp png, png_infop info) {
    decode_state *state = (decode_state *)png_get_error_ptr(png);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    if (width != state->width || height != state->height) {
        png_error(png, "image size differs from the caller's IHDR");
    }
    // Read at the first IDAT, after which libpng ignores tRNS.
    state->result->has_alpha = (color & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    png_set_expand(png);  // palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha
    png_set_scale_16(png);  // 16 -> 8 bits rounded, as libpng's simplified API does
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);  // only applies when there is no alpha
    if (state->on_band != NULL && interlace != PNG_INTERLACE_NONE) {
        png_error(png, "an interlaced image cannot be read in bands");
    }
    state->passes = png_set_interlace_handling(png);
    state->result->interlaced = interlace != PNG_INTERLACE_NONE;
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after expansion to RGBA8");
    }
}

static void on_row(png_structp png, png_bytep row, png_uint_32 index, int pass) {
    decode_state *state = (decode_state *)png_get_progressive_ptr(png);
    if (row == NULL || index >= state->height) return;
    if (state->should_stop != NULL && ++state->rows_since_stop_check >= YY_PNG_ROWS_PER_STOP_CHECK) {
        state->rows_since_stop_check = 0;
        if (state->should_stop(state->stop_context)) {
            state->result->stopped = 1;
            png_error(png, "stopped by the caller");
        }
    }
    if (state->on_band != NULL) {
        // Rows of a non-interlaced image arrive once each, in order.
        const uint32_t slot = index % state->band_rows;
        png_progressive_combine_row(png, state->pixels + (size_t)slot * state->stride, row);
        state->result->rows_delivered = index + 1;
        if ((slot + 1 == state->band_rows || index + 1 == state->height) &&
            state->on_band(state->band_context, index - slot, slot + 1)) {
            state->result->stopped = 1;
            png_error(png, "stopped by the caller");
        }
        return;
    }
    png_progressive_combine_row(png, state->pixels + (size_t)index * state->stride, row);
    if (pass > state->result->pass) {
        state->result->pass = pass;
        state->result->rows_delivered = 0;
    }
    if (index + 1 > state->result->rows_delivered) state->result->rows_delivered = index + 1;
}

static void on_end(png_structp png, png_infop info) {
    decode_state *state = (decode_state *)png_get_progressive_ptr(png);
    (void)info;
    state->result->complete = 1;
}

static void decode(decode_state *state, const uint8_t *data, size_t size, int skip_adler32);

void yy_png_decode_rgba(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int skip_adler32,
                        uint8_t *pixels, size_t stride, yy_png_should_stop should_stop, void *stop_context,
                        yy_png_decode_result *result) {
    memset(result, 0, sizeof *result);
    decode_state state = {width, height, pixels, stride, 0, NULL, NULL, 1, should_stop, stop_context, 0, result};
    decode(&state, data, size, skip_adler32);
}

void yy_png_decode_rgba_bands(const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint8_t *band,
                              size_t stride, uint32_t band_rows, yy_png_band_ready on_band, void *band_context,
                              yy_png_should_stop should_stop, void *stop_context, yy_png_decode_result *result) {
    memset(result, 0, sizeof *result);
    decode_state state = {width, height, band, stride, band_rows, on_band, band_context, 1, should_stop, stop_context, 0, result};
    decode(&state, data, size, 0);
}

/// Runs libpng's progressive reader over `data` with `state`'s output and callbacks.
static void decode(decode_state *state, const uint8_t *data, size_t size, int skip_adler32) {
    yy_png_decode_result *result = state->result;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, on_error, on_warning);
    if (png == NULL) {
        result->failed = 1;
        snprintf(result->message, sizeof result->message, "out of memory");
        return;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        result->failed = 1;
        snprintf(result->message, sizeof result->message, "out of memory");
        return;
    }
    // `volatile` is not needed: nothing set between setjmp and longjmp is read after the jump
    // except through `state`, which lives in memory.
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return;
    }
    png_set_user_limits(png, state->width, state->height);
#ifdef PNG_IGNORE_ADLER32
    if (skip_adler32) png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    // The progressive reader, for complete data too: once every row is out it stops inflating
    // at the first byte too many, where the sequential reader inflates whatever IDAT data
    // follows the image to its end (a few megabytes of it can hold gigabytes of zeros).
    png_set_progressive_read_fn(png, state, on_info, on_row, on_end);
    png_process_data(png, info, (png_bytep)data, size);
    png_destroy_read_struct(&png, &info, NULL);
}
