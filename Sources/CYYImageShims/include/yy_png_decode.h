#ifndef YYKIT_PNG_DECODE_H
#define YYKIT_PNG_DECODE_H
#include <stddef.h>
#include <stdint.h>

/// What one call of `yy_png_decode_rgba` achieved.
typedef struct {
    /// 1 when libpng reported an error (the message says which); 0 otherwise.
    int failed;
    /// 1 when the image end (IEND) was reached: every row is final.
    int complete;
    /// 1 when the image is Adam7-interlaced.
    int interlaced;
    /// 1 when the image has an alpha channel or a tRNS chunk as libpng read them; with 0 every
    /// row written is opaque (alpha 255).
    int has_alpha;
    /// Rows delivered by the last pass seen so far (progressive display: rows below this are empty
    /// or, for interlaced images, filled only by earlier passes).
    uint32_t rows_delivered;
    /// The number of the pass that delivered `rows_delivered` (0 for non-interlaced images).
    int pass;
    /// 1 when `should_stop` said to stop (then `failed` is 1 too).
    int stopped;
    /// libpng's error text when `failed`.
    char message[160];
} yy_png_decode_result;

/// Asked every `YY_PNG_ROWS_PER_STOP_CHECK` rows with the caller's `context`; nonzero stops the decode.
typedef int (*yy_png_should_stop)(void *context);

/// How many delivered rows pass between two calls of the stop callback.
#define YY_PNG_ROWS_PER_STOP_CHECK 64

/// Decodes the PNG stream `data[0..<size]` (complete or a prefix of it) into straight RGBA8 rows at
/// `pixels` (`height` rows of `stride` bytes, zero-filled by the caller).
///
/// libpng reports errors with longjmp, which Swift cannot use; this C function owns the setjmp.
/// It uses libpng's progressive reader, so a stream that stops early yields the rows that arrived
/// (`complete` stays 0) instead of an error, and image data past the last row is not inflated.
/// The image must be `width` x `height` (the caller read IHDR and checked its limits).
/// `skip_adler32` skips zlib's checksum of the image data, for streams whose chunk CRCs the
/// caller has already verified. `should_stop` (may be NULL) is asked every
/// `YY_PNG_ROWS_PER_STOP_CHECK` rows with `stop_context`; when it answers nonzero the decode ends
/// with `failed` and `stopped` set.
/// Palette, gray and low-bit images are expanded, tRNS becomes alpha, 16-bit samples are scaled
/// to 8 bits with rounding; no gamma or colour-space conversion is applied.
void yy_png_decode_rgba(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int skip_adler32,
                        uint8_t *pixels, size_t stride, yy_png_should_stop should_stop, void *stop_context,
                        yy_png_decode_result *result);

/// Called by `yy_png_decode_rgba_bands` with `context` each time its band buffer holds rows
/// `first_row ..< first_row + rows` of the image (from the buffer's first row); nonzero stops the
/// decode (`failed` and `stopped` are then set).
typedef int (*yy_png_band_ready)(void *context, uint32_t first_row, uint32_t rows);

/// `yy_png_decode_rgba` for a non-interlaced image, through a buffer of `band_rows` rows (of
/// `stride` bytes) instead of the whole image: each time it is full, and with the last rows,
/// `on_band` gets it. An interlaced image is an error. `rows_delivered` counts the rows handed over.
void yy_png_decode_rgba_bands(const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint8_t *band,
                              size_t stride, uint32_t band_rows, yy_png_band_ready on_band, void *band_context,
                              yy_png_should_stop should_stop, void *stop_context, yy_png_decode_result *result);

#endif
