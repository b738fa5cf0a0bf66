#pragma once
// Counts GL calls made by the engine and by the hand-written loops alike: the functions a step
// can call are defined in this executable (so the linker binds every caller to them), count,
// and forward to the real entry point found with dlsym(RTLD_NEXT).
namespace xfbbench {
void resetGlCalls();
long glCalls();
} // namespace xfbbench
