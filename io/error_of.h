// For tests: the message of the exception of type E that `read` throws, ""
// if none (another exception escapes).
#ifndef DTRCHECK_IO_ERROR_OF_H_
#define DTRCHECK_IO_ERROR_OF_H_

#include <string>

namespace dtrcheck {

template <typename E, typename F>
std::string ErrorOf(F read) {
  try {
    read();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_ERROR_OF_H_
