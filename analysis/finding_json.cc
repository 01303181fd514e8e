#include "analysis/finding_json.h"

#include "io/record.h"

namespace dtrcheck {

Json FindingEndToJson(const FindingEnd& e) {
  Json j;
  j["ratio"] = e.ratio ? Json(*e.ratio) : Json(nullptr);
  j["budget"] = Json(e.budget);
  j["status"] = StatusName(e.status);
  j["overhead"] = e.overhead;
  return j;
}

}  // namespace dtrcheck
