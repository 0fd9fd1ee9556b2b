// String scanning for YYModelCore's JSON parser: 32 bytes a step with AVX2 on x86-64.
#ifndef YYKIT_JSON_SCAN_H
#define YYKIT_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// Whether yy_json_scan_string runs here (x86-64 with AVX2); 0 elsewhere, where the parser's own
/// eight-byte loop does the work.
int yy_json_scan_available(void);

/// Scans JSON string text from `text[0]`: returns the offset of the first byte that ends plain text
/// (`"`, `\`, or a byte below 0x20) after checking that the bytes before it are valid UTF-8
/// (Unicode table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF, no sequence cut
/// short by that byte). Returns -1 if they are not, if no byte before `length` ends the text,
/// and where yy_json_scan_available() is 0: the caller's own checks then find what is wrong.
/// Never reads at or past `text + length`, which must be below PTRDIFF_MAX.
ptrdiff_t yy_json_scan_string(const uint8_t *text, size_t length);

#endif
