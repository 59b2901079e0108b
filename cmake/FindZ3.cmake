# Finds Z3 (the SMT solver of src/exact): Debian's libz3-dev (4.8.12) by default, or PyPI's
# z3-solver wheel with -DGAUS_Z3_WHEEL=ON. The wheel (5.4.1: `python3 -m pip install
# 'z3-solver==5.4.1.*'`) holds libz3.so, z3.h and z3++.h in its package folder (z3/lib,
# z3/include); this module asks the python3 on the PATH where it is, as cmake/FindHighs.cmake
# does for highsbox. 5.4.1 loads twill's models many times faster but, on the sub-tiled
# stand-in, its cross-edge minimization loses the proof 4.8.12 finds, so it is not the default yet
# (docs/exact.md, "Z3 version").
#   -DGAUS_Z3_WHEEL=ON   the z3-solver wheel of the python3 on the PATH
#   -DZ3_ROOT=<prefix>   another install: a prefix holding lib/libz3.so (or lib/<multiarch>/)
#                        and include/z3++.h
# The choice is cached in Z3_LIBRARY and Z3_INCLUDE_DIR: switching in a configured build folder
# needs those two cleared (or a fresh folder).
#
# Defines z3::z3 (shared, imported), Z3_FOUND, Z3_VERSION. The binaries that link it find
# libz3 at run time through their RPATH (CMake puts the library's folder there, also on install:
# CMAKE_INSTALL_RPATH_USE_LINK_PATH in the top CMakeLists.txt).
if(TARGET z3::z3)
  set(Z3_FOUND TRUE)
  return()
endif()

option(GAUS_Z3_WHEEL "Build on PyPI's z3-solver wheel (python3 -m pip install z3-solver)" OFF)
set(Z3_ROOT "" CACHE PATH "Prefix of a Z3 install; empty: the system's (or the wheel's)")
set(_z3_prefix "${Z3_ROOT}")
if(NOT _z3_prefix AND GAUS_Z3_WHEEL)
  # The first interpreter that has the wheel, in the order FindHighs.cmake uses.
  find_program(GAUS_Z3_PYTHON NAMES python3)
  set(_z3_pythons "${GAUS_Z3_PYTHON}" "${Python_EXECUTABLE}" "${Python3_EXECUTABLE}"
                  /usr/bin/python3)
  foreach(_z3_python IN LISTS _z3_pythons)
    if(NOT _z3_python OR NOT EXISTS "${_z3_python}")
      continue()
    endif()
    # The package's folder, without importing it (importing loads libz3).
    execute_process(
      COMMAND "${_z3_python}" -c
              "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('z3').origin))"
      OUTPUT_VARIABLE _z3_prefix OUTPUT_STRIP_TRAILING_WHITESPACE
      ERROR_QUIET RESULT_VARIABLE _z3_python_result)
    if(_z3_python_result EQUAL 0 AND _z3_prefix AND EXISTS "${_z3_prefix}/include/z3++.h")
      break()
    endif()
    set(_z3_prefix "")
  endforeach()
  if(NOT _z3_prefix)
    message(FATAL_ERROR "GAUS_Z3_WHEEL: no z3-solver wheel for python3: python3 -m pip install 'z3-solver==5.4.1.*'")
  endif()
endif()

if(_z3_prefix)
  find_library(Z3_LIBRARY NAMES z3 HINTS "${_z3_prefix}/lib" "${_z3_prefix}/lib64"
               "${_z3_prefix}/lib/${CMAKE_LIBRARY_ARCHITECTURE}" NO_DEFAULT_PATH)
  find_path(Z3_INCLUDE_DIR NAMES z3++.h HINTS "${_z3_prefix}/include" NO_DEFAULT_PATH)
endif()
find_library(Z3_LIBRARY NAMES z3)
find_path(Z3_INCLUDE_DIR NAMES z3++.h PATH_SUFFIXES z3)

if(Z3_INCLUDE_DIR AND EXISTS "${Z3_INCLUDE_DIR}/z3_version.h")
  file(STRINGS "${Z3_INCLUDE_DIR}/z3_version.h" _z3_version_lines
       REGEX "#define Z3_(MAJOR|MINOR|BUILD)_(VERSION|NUMBER) ")
  foreach(_part MAJOR MINOR BUILD)
    string(REGEX REPLACE ".*#define Z3_${_part}_(VERSION|NUMBER) +([0-9]+).*" "\\2" _z3_${_part}
                         "${_z3_version_lines}")
  endforeach()
  set(Z3_VERSION "${_z3_MAJOR}.${_z3_MINOR}.${_z3_BUILD}")
elseif(Z3_LIBRARY)
  # The wheel ships no z3_version.h; its library's name carries the version (libz3.so.5.4).
  file(GLOB _z3_versioned "${Z3_LIBRARY}.*")
  foreach(_z3_file IN LISTS _z3_versioned)
    if(_z3_file MATCHES "libz3\\.so\\.([0-9]+\\.[0-9]+(\\.[0-9]+)?)$")
      set(Z3_VERSION "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(
  Z3
  REQUIRED_VARS Z3_LIBRARY Z3_INCLUDE_DIR
  VERSION_VAR Z3_VERSION
  FAIL_MESSAGE "Z3 not found: run scripts/setup.sh (installs PyPI's z3-solver wheel with python3 -m pip) or pass -DZ3_ROOT=<prefix>")

if(Z3_FOUND)
  add_library(z3::z3 SHARED IMPORTED)
  set_target_properties(z3::z3 PROPERTIES IMPORTED_LOCATION "${Z3_LIBRARY}"
                                          INTERFACE_INCLUDE_DIRECTORIES "${Z3_INCLUDE_DIR}")
  message(STATUS "gaus: Z3 ${Z3_VERSION} (${Z3_LIBRARY})")
endif()
