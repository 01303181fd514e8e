// Number formatting shared by the reports (tables, findings, markdown).
#ifndef DTRCHECK_ANALYSIS_FORMAT_H_
#define DTRCHECK_ANALYSIS_FORMAT_H_

#include <string>

#include "sim/python/py_arith.h"

namespace dtrcheck {

// The shortest text that reads back as the same double (Python's repr):
// 0.103 -> "0.103", 0.1 -> "0.1".
std::string ShortestDouble(double v);

// printf("%.*f"): Fixed(2.2229, 3) -> "2.223".
std::string Fixed(double v, int decimals);

// Digits grouped by commas, as the published findings write bytes: "179,830,912".
std::string GroupedInt(Int v);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_FORMAT_H_
