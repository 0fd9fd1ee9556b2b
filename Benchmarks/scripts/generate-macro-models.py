#!/usr/bin/env python3
"""Writes Sources/JSONBenchmarks/ModelsMacro.swift from Models.swift: the same models, names prefixed
with M, annotated with @Model and without Codable (the macro adds it). Run it from Benchmarks/
after changing Models.swift; the output is committed."""
import re

NAMES = ["Twitter", "SearchMetadata", "Status", "User", "Entities", "Hashtag", "URLEntity", "Mention", "Media",
         "MediaSize", "CitmCatalog", "Event", "Performance", "Price", "SeatCategory", "Area", "Canada", "Feature",
         "Geometry", "GitHubUser"]

source = open("Sources/JSONBenchmarks/Models.swift").read()
body = source[source.index("struct Twitter"):]
for name in sorted(NAMES, key=len, reverse=True):
    body = re.sub(r"\b%s\b" % name, "M" + name, body)
body = body.replace(": Codable, Equatable {", ": Equatable {").replace(": Codable {", " {")
body = re.sub(r"^(struct |final class )", r"@Model\n\1", body, flags=re.M)
body = body.replace("/// YYModel's GitHub-user sample (yymodel_github_user.json).\n", "")
header = """import Foundation
import YYModel

// @Model mirrors of Models.swift (same shapes, names prefixed with M), written by
// scripts/generate-macro-models.py: the macro path needs its own types so that JSONDecoder keeps
// the synthesized Codable of the originals.

"""
open("Sources/JSONBenchmarks/ModelsMacro.swift", "w").write(header + body)
