// memkit's C++ API: include this, or the one header of the module you use.
#pragma once

#include "memkit/audit.hpp"
#include "memkit/budget.hpp"
#include "memkit/clock.hpp"
#include "memkit/digest.hpp"
#include "memkit/file_system.hpp"
#include "memkit/findings.hpp"
#include "memkit/layouts.hpp"
#include "memkit/markdown.hpp"
#include "memkit/result.hpp"
#include "memkit/snapshot.hpp"
#include "memkit/status.hpp"
#include "memkit/text.hpp"
#include "memkit/tokens.hpp"
#include "memkit/version.hpp"
#include "memkit/workspace.hpp"
