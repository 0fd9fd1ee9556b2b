#ifndef YYKIT_SIMDJSON_SHIM_H
#define YYKIT_SIMDJSON_SHIM_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
/// A reusable simdjson DOM parser (the benchmark's peer; linked only from the Benchmarks package).
void *yy_simdjson_parser_new(void);
void yy_simdjson_parser_free(void *parser);
/// Parses `length` bytes; `data` must have at least 64 readable bytes past the end (simdjson's
/// padding). Returns 0 on success, the simdjson error code otherwise.
int yy_simdjson_parse(void *parser, const char *data, size_t length);
#ifdef __cplusplus
}
#endif
#endif
