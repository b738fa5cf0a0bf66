#include "capture/gather.hpp"
#include "platform/context.hpp"
