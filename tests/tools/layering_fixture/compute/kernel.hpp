#include "gl/state.hpp"
