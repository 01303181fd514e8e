// Running simrd itself (oracle/simrd_oracle.py) from C++, to confirm a
// reduced trace: the reducer and the pathology property tests ask simrd for
// the records of the runs they base a claim on.
#ifndef DTRCHECK_ORACLE_SIMRD_CLIENT_H_
#define DTRCHECK_ORACLE_SIMRD_CLIENT_H_

#include <optional>
#include <string>
#include <vector>

#include "io/record.h"
#include "sim/simulate.h"

namespace dtrcheck {

// The directory holding the simrd package, searched as the oracle does:
// $SIMRD_DIR, $SIMRD_CACHE/simrd, ${XDG_CACHE_HOME:-~/.cache}/dtrcheck/simrd.
// Nothing if simrd is not there.
std::optional<std::string> FindSimrd();

// $DTRCHECK_ORACLE, else oracle/simrd_oracle.py in the source tree.
std::string OracleScript();

// The oracle's configuration object for `config` (budget or ratio, limits,
// names, seed).
Json OracleConfig(const RunConfig& config);

// Runs `simrd_oracle.py batch TRACE` on the configurations and returns its
// records, one per configuration. Throws std::runtime_error if the oracle
// cannot be run or prints a different number of records.
std::vector<Json> RunOracle(const std::string& trace, const std::vector<Json>& configs);

}  // namespace dtrcheck

#endif  // DTRCHECK_ORACLE_SIMRD_CLIENT_H_
