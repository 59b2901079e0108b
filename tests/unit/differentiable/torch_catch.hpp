// LibTorch (Debian's build uses glog) defines a CHECK macro that clashes with Catch2's. Tests of
// this module include this header instead of both: LibTorch first, glog's CHECK removed, then
// Catch2.
#pragma once

#include <torch/torch.h>

#undef CHECK

#include <catch2/catch.hpp>
