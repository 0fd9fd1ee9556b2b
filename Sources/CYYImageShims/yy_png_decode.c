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
    int passes;
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
    // The error pointer is the state in both readers (the progressive pointer is the sequential
    // reader's input).
    decode_state *state = (decode_state *)png_get_error_ptr(png);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    if (width != state->width || height != state->height) {
        png_error(png, "image size differs from the caller's IHDR");
    }
    png_set_expand(png);  // palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha
    png_set_scale_16(png);  // 16 -> 8 bits rounded, as libpng's simplified API does
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);  // only applies when there is no alpha
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

/// Where the sequential reader is in the input.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} memory_source;

static void read_from_memory(png_structp png, png_bytep out, size_t count) {
    memory_source *source = (memory_source *)png_get_io_ptr(png);
    if (count > source->size - source->offset) png_error(png, "unexpected end of data");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

/// The faster path for complete data: libpng's sequential reader, rows straight into `pixels`.
static void decode_complete(const uint8_t *data, size_t size, int skip_adler32, decode_state *state) {
    yy_png_decode_result *result = state->result;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        if (png) png_destroy_read_struct(&png, NULL, NULL);
        result->failed = 1;
        snprintf(result->message, sizeof result->message, "out of memory");
        return;
    }
    memory_source source = {data, size, 0};
    // Row pointers are allocated before setjmp so the error path can free them.
    png_bytep *rows = malloc(sizeof(png_bytep) * state->height);
    if (rows == NULL || setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        if (rows == NULL) {
            result->failed = 1;
            snprintf(result->message, sizeof result->message, "out of memory");
        }
        return;
    }
    png_set_user_limits(png, state->width, state->height);
#ifdef PNG_IGNORE_ADLER32
    if (skip_adler32) png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_set_read_fn(png, &source, read_from_memory);
    png_read_info(png, info);
    on_info(png, info);
    for (uint32_t y = 0; y < state->height; y++) rows[y] = state->pixels + (size_t)y * state->stride;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    result->rows_delivered = state->height;
    result->pass = state->passes - 1;
    result->complete = 1;
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
}

void yy_png_decode_rgba(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int complete,
                        int skip_adler32, uint8_t *pixels, size_t stride, yy_png_decode_result *result) {
    memset(result, 0, sizeof *result);
    decode_state state = {width, height, pixels, stride, 1, result};
    if (complete) {
        decode_complete(data, size, skip_adler32, &state);
        return;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
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
    png_set_user_limits(png, width, height);
    png_set_progressive_read_fn(png, &state, on_info, on_row, on_end);
    png_process_data(png, info, (png_bytep)data, size);
    png_destroy_read_struct(&png, &info, NULL);
}
