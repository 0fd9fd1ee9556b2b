#include <simdjson.h>
#include "simdjson_shim.h"

extern "C" void *yy_simdjson_parser_new(void) { return new simdjson::dom::parser(); }

extern "C" void yy_simdjson_parser_free(void *parser) { delete static_cast<simdjson::dom::parser *>(parser); }

extern "C" int yy_simdjson_parse(void *parser, const char *data, size_t length) {
    simdjson::dom::element document;
    auto error = static_cast<simdjson::dom::parser *>(parser)
                     ->parse(reinterpret_cast<const uint8_t *>(data), length, false)
                     .get(document);
    return static_cast<int>(error);
}
