# The Python wheel's dependencies from PyPI (docs/python.md, "Install"): when the Python that
# builds the wheel has PyPI's torch, gaus is built against that torch the way PyTorch's C++
# extensions are (torch.utils.cpp_extension: torch's include/ and lib/, linked to libtorch,
# libtorch_cpu and libc10, found at run time beside the package), Z3 comes from the z3-solver
# wheel and HiGHS from the highsbox wheel, and no Debian package is needed at run time:
#
#   GAUS_PYPI_DEPS  AUTO (default): ON when GAUS_PYTHON is on and the build's Python imports
#                   torch; ON: required (fails without torch and z3-solver); OFF: the Debian
#                   build (find_package(Torch), pkg-config's Z3 and CBC), as scripts/test.sh
#                   builds the package.
#
# When on, this module sets for the rest of the project:
#   GAUS_TORCH_FROM_PYTHON, GAUS_TORCH_VERSION  torch's version as torch.__version__ says it
#   GAUS_Z3_SOLVER_VERSION                      the z3-solver release whose libz3 is linked
#   TORCH_LIBRARIES, TORCH_INCLUDE_DIRS, TORCH_CXX_FLAGS  what find_package(Torch) would
#                   (src/differentiable), naming the CPU libraries only: libtorch.so of a CUDA
#                   wheel loads libtorch_cuda, so one build serves torch's CPU and CUDA wheels of
#                   a version, and no CUDA toolkit is needed to build it
#   Z3_ROOT         the z3-solver wheel's z3/ folder (lib/libz3.so, include/; cmake/FindZ3.cmake)
#   GAUS_WITH_CBC   OFF: PyPI has no CBC library (src/milp; `solver=cbc` answers an error)
#   MPI             not looked for: the wheel would need the machine's libmpi
#   CMAKE_INSTALL_RPATH  $ORIGIN-relative: gaus/lib (the bundled libraries, python/CMakeLists.txt),
#                   then torch/lib, z3/lib and highsbox's lib in the same site-packages.
set(GAUS_PYPI_DEPS AUTO CACHE STRING
    "Build the wheel against PyPI's torch, z3-solver and highsbox: AUTO, ON or OFF")
set_property(CACHE GAUS_PYPI_DEPS PROPERTY STRINGS AUTO ON OFF)
set(GAUS_TORCH_FROM_PYTHON OFF)
if(NOT GAUS_PYTHON OR GAUS_PYPI_DEPS STREQUAL "OFF")
  return()
endif()

find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
execute_process(
  COMMAND "${Python_EXECUTABLE}" -W ignore -c
          "import os, torch, torch.utils; print(torch.__version__); print(os.path.dirname(torch.__file__)); print(int(torch.compiled_with_cxx11_abi()))"
  OUTPUT_VARIABLE _pypi_torch_facts OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_VARIABLE _pypi_torch_error RESULT_VARIABLE _pypi_torch_result)
if(NOT _pypi_torch_result EQUAL 0)
  if(GAUS_PYPI_DEPS STREQUAL "ON")
    message(FATAL_ERROR "GAUS_PYPI_DEPS=ON, but ${Python_EXECUTABLE} cannot import torch: "
                        "pip install torch (then pip install --no-build-isolation .)\n"
                        "${_pypi_torch_error}")
  endif()
  message(STATUS "gaus: ${Python_EXECUTABLE} has no torch: the wheel links the system's "
                 "LibTorch, Z3 and CBC")
  return()
endif()
string(REPLACE "\n" ";" _pypi_torch_facts "${_pypi_torch_facts}")
list(GET _pypi_torch_facts 0 GAUS_TORCH_VERSION)
list(GET _pypi_torch_facts 1 _pypi_torch_dir)
list(GET _pypi_torch_facts 2 _pypi_torch_cxx11_abi)
set(GAUS_TORCH_FROM_PYTHON ON)

# torch as torch.utils.cpp_extension builds against it: its two include folders, the C++ ABI it
# was built with, and its CPU libraries by path (Debian's libtorch.so in /usr/lib must not be
# found instead).
set(TORCH_INCLUDE_DIRS "${_pypi_torch_dir}/include"
                       "${_pypi_torch_dir}/include/torch/csrc/api/include")
set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=${_pypi_torch_cxx11_abi}")
set(_pypi_torch_libraries "")
foreach(_pypi_torch_library torch torch_cpu c10)
  set(_pypi_torch_file "${_pypi_torch_dir}/lib/lib${_pypi_torch_library}.so")
  if(NOT EXISTS "${_pypi_torch_file}")
    message(FATAL_ERROR "torch ${GAUS_TORCH_VERSION} in ${_pypi_torch_dir} has no ${_pypi_torch_file}")
  endif()
  list(APPEND _pypi_torch_libraries "${_pypi_torch_file}")
endforeach()
add_library(gaus_pypi_torch INTERFACE IMPORTED GLOBAL)
# --no-as-needed: libtorch.so exports nothing gaus calls, but loading it is what loads
# libtorch_cuda (and registers the CUDA device) when the program runs outside Python.
set_target_properties(gaus_pypi_torch PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${TORCH_INCLUDE_DIRS}"
  INTERFACE_LINK_LIBRARIES "-Wl,--push-state,--no-as-needed;${_pypi_torch_libraries};-Wl,--pop-state")
set(TORCH_LIBRARIES gaus_pypi_torch)
message(STATUS "gaus: building against PyPI's torch ${GAUS_TORCH_VERSION} in ${_pypi_torch_dir}")

# Sets the cache path ROOT_VARIABLE, unless the user gave it, to the folder that EXPRESSION
# prints in the build's Python (a package that this Python must have: PACKAGE, installed by
# INSTALL).
function(gaus_root_from_python root_variable expression package install)
  if(${root_variable})
    return()
  endif()
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c "${expression}"
    OUTPUT_VARIABLE prefix OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "the wheel on PyPI's torch takes ${package} from PyPI, which "
                        "${Python_EXECUTABLE} does not have: ${install}")
  endif()
  set(${root_variable} "${prefix}" CACHE PATH "Prefix of a ${package} install" FORCE)
endfunction()

# Z3 from the z3-solver wheel (z3/lib/libz3.so and z3/include), HiGHS from the same Python's
# highsbox (cmake/FindHighs.cmake would ask the python3 on the PATH first, which may be another
# interpreter's).
gaus_root_from_python(Z3_ROOT "import os, z3; print(os.path.dirname(z3.__file__))" "z3-solver"
                      "pip install z3-solver")
gaus_root_from_python(HIGHS_ROOT "import highsbox; print(highsbox.highs_dist_dir())" "highsbox"
                      "pip install 'highsbox>=1.15,<1.16'")
# The z3-solver release the package links (libz3.so.MAJOR.MINOR): gaus/__init__.py warns at
# import when the Python that imports it has another (python/CMakeLists.txt records it).
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c "import importlib.metadata as m; print(m.version('z3-solver'))"
  OUTPUT_VARIABLE GAUS_Z3_SOLVER_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)

set(GAUS_WITH_CBC OFF CACHE BOOL "Build the CBC solver of src/milp" FORCE)
set(CMAKE_DISABLE_FIND_PACKAGE_MPI ON)

# The installed package finds torch, libz3 and libhighs in its own site-packages, wherever that
# is, and the libraries it carries in gaus/lib (the plugins and the program sit in gaus/ too).
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH OFF)
set(CMAKE_INSTALL_RPATH "$ORIGIN/lib;$ORIGIN/../torch/lib;$ORIGIN/../z3/lib;$ORIGIN/../highsbox/highs_dist/lib")
