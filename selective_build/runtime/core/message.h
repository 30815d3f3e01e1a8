#pragma once

namespace rt {

// Room for one failure message that names run-time things (an operator, a
// dtype, a backend), written with snprintf. Its owner keeps it alive as long
// as the Status pointing at it.
struct Message {
  char text[512];  // fits an operator name, its kernel key and the words around them
};

}  // namespace rt
