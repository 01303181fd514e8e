// A library whose ABI "entry point" is a data object of that name, not a
// function: calling it would execute data (a segfault). The loader must
// refuse it before calling anything.
#include <dtrcheck/heuristic.h>

extern "C" __attribute__((visibility("default"))) const int dtrcheck_plugin_abi_version =
    dtrcheck::api::kAbiVersion;
extern "C" __attribute__((visibility("default"))) void dtrcheck_plugin_register(
    dtrcheck::api::Registrar&) {}
