#include "compute/kernel.hpp"
#include "gl/state.hpp"
