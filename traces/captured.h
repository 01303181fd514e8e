// The captured traces: training steps of today's models logged by capture/ (python3 -m
// capture zoo) and kept gzip-compressed in traces/captured/ with their manifest.
//
// traces/captured/manifest.json is compiled in, like the public manifest. A captured
// trace is handed out as a plain log in the cache, so that dtrcheck and simrd both read
// a path: ${XDG_CACHE_HOME:-~/.cache}/dtrcheck/captured/NAME.log, decompressed from
// <source>/traces/captured/NAME.log.gz (or $DTRCHECK_CAPTURED/NAME.log.gz) when missing
// or stale, and checked against the SHA-256 of the decompressed log on every use.
#ifndef DTRCHECK_TRACES_CAPTURED_H_
#define DTRCHECK_TRACES_CAPTURED_H_

#include <string>
#include <string_view>
#include <vector>

#include "traces/locate.h"

namespace dtrcheck {

// A captured trace's manifest entry: file is the compressed log inside the
// captured directory, sha256 that of the decompressed log.
using CapturedTrace = ManifestTrace;

// The traces of traces/captured/manifest.json, in manifest order.
const std::vector<CapturedTrace>& CapturedTraces();
const CapturedTrace* FindCapturedTrace(std::string_view name);
std::string CapturedTraceNames();

// Where the compressed logs are: $DTRCHECK_CAPTURED, else <source>/traces/captured.
std::string CapturedTraceDir();
// Where the decompressed logs are cached.
std::string CapturedCacheDir();

// The path of the verified decompressed log of a captured trace, decompressing it into
// the cache first when needed (atomically: concurrent callers are safe). Throws
// TraceLocateError for an unknown name, a missing or corrupt archive, or a log whose
// SHA-256 is not the manifest's.
std::string LocateCapturedTrace(std::string_view name);

}  // namespace dtrcheck

#endif  // DTRCHECK_TRACES_CAPTURED_H_
