// A plugin whose registration entry point throws something that is not a
// std::exception.
#include <dtrcheck/heuristic.h>

DTRCHECK_PLUGIN(registrar) {
  (void)registrar;
  throw 3.5;
}
