#pragma once
/// @file
/// @brief Everything: the pure planner and the GL objects.
#include "xfb/attribute_plan.hpp"
#include "xfb/buffer.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/capture_session.hpp"
#include "xfb/device.hpp"
#include "xfb/error.hpp"
#include "xfb/limits.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/pipeline.hpp"
#include "xfb/primitive_capture.hpp"
#include "xfb/primitive_count.hpp"
#include "xfb/program.hpp"
#include "xfb/readback.hpp"
#include "xfb/shader_interface.hpp"
#include "xfb/vertex_format.hpp"
