// Registers the specialized kernels of this family (see registry.h).
#include "query/registry.h"

namespace collide::internal {

void RegisterBoxKernels(Registry& r) { (void)r; }

}  // namespace collide::internal
