#ifndef YYKIT_CRSVG_SHIM_H
#define YYKIT_CRSVG_SHIM_H
// The part of librsvg's C API (2.52 and later) that YYImage draws SVG with, declared here rather
// than through <librsvg/rsvg.h>: that header pulls in GLib's, which need pkg-config's include
// paths, and pkg-config's flags for librsvg carry -pthread, which SwiftPM refuses with a warning
// on every build. The declarations match librsvg's and GLib's stable ABI; cairo's own header
// needs no extra path.
#include <stddef.h>
#include <stdint.h>
#include <cairo/cairo.h>

/// GLib's error: a domain, a code and a message (freed with g_error_free).
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} GError;
void g_error_free(GError *error);
void g_object_unref(void *object);

typedef struct _RsvgHandle RsvgHandle;
typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;
typedef struct {
    double length;
    int unit;
} RsvgLength;

RsvgHandle *rsvg_handle_new_from_data(const uint8_t *data, size_t data_len, GError **error);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
int rsvg_handle_set_stylesheet(RsvgHandle *handle, const uint8_t *css, size_t css_len, GError **error);
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, int *out_has_width, RsvgLength *out_width, int *out_has_height,
    RsvgLength *out_height, int *out_has_viewbox, RsvgRectangle *out_viewbox);
int rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
#endif
