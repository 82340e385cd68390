// Registers the specialized kernels of this family (see registry.h).
#include "query/registry.h"

namespace collide::internal {

void RegisterRoundKernels(Registry& r) { (void)r; }

}  // namespace collide::internal
