#include <memory>

#include "policies/address_policies.h"

namespace dtrcheck::policies {

void RegisterAddressPolicies(api::Registrar& registrar) {
  registrar.Add("DTE", "$h_{DTE}$", [](api::Int) { return MakeOneFlowDte(); });
  registrar.Add("Coop", "$h_{Coop}$", [](api::Int) { return MakeOneFlowCoop(); });
  // The options are read when a run starts, as MegEngine reads them.
  registrar.Add("MegEngineDTR", "$h_{MegEngineDTR}$",
                [](api::Int) { return MakeMegEngineDtr(MegEngineOptionsFromEnv()); });
  registrar.Add("MegEngineDTRSqrt", "$h_{MegEngineDTRSqrt}$", [](api::Int) {
    MegEngineOptions options = MegEngineOptionsFromEnv();
    options.sqrt_sampling = true;
    return MakeMegEngineDtr(options);
  });
}

}  // namespace dtrcheck::policies
