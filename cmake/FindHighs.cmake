# Finds HiGHS (the MILP solver of src/milp, beside CBC) as PyPI's highsbox wheel ships it:
# libhighs.so, its headers and a CMake config whose imported location (lib64/) does not match
# the wheel's layout (lib/), so the target is made here instead. Debian 12 has no HiGHS package;
# scripts/setup.sh installs the wheel with the `python3` on the PATH, and this module asks the
# same python3 where the wheel put it. -DHIGHS_ROOT=<prefix> points at another install (a prefix
# holding lib/libhighs.so and include/highs/Highs.h).
#
# Defines highs::highs (shared, imported), Highs_FOUND, Highs_VERSION. The binaries that link it
# find libhighs at run time through their RPATH (CMake puts the library's folder there, also on
# install: CMAKE_INSTALL_RPATH_USE_LINK_PATH in the top CMakeLists.txt).
if(TARGET highs::highs)
  set(Highs_FOUND TRUE)
  return()
endif()

set(HIGHS_ROOT "" CACHE PATH "Prefix of a HiGHS install; empty: ask python3 for the highsbox wheel")
set(_highs_prefix "${HIGHS_ROOT}")
if(NOT _highs_prefix)
  find_program(GAUS_HIGHS_PYTHON NAMES python3)
  if(GAUS_HIGHS_PYTHON)
    execute_process(
      COMMAND "${GAUS_HIGHS_PYTHON}" -c "import highsbox; print(highsbox.highs_dist_dir())"
      OUTPUT_VARIABLE _highs_prefix OUTPUT_STRIP_TRAILING_WHITESPACE
      ERROR_QUIET RESULT_VARIABLE _highs_python_result)
    if(NOT _highs_python_result EQUAL 0)
      set(_highs_prefix "")
    endif()
  endif()
endif()

find_library(HIGHS_LIBRARY NAMES highs HINTS "${_highs_prefix}/lib" "${_highs_prefix}/lib64"
             NO_DEFAULT_PATH)
find_library(HIGHS_LIBRARY NAMES highs)
find_path(HIGHS_INCLUDE_DIR NAMES interfaces/highs_c_api.h
          HINTS "${_highs_prefix}/include/highs" NO_DEFAULT_PATH)
find_path(HIGHS_INCLUDE_DIR NAMES interfaces/highs_c_api.h PATH_SUFFIXES highs)

if(HIGHS_INCLUDE_DIR AND EXISTS "${HIGHS_INCLUDE_DIR}/HConfig.h")
  file(STRINGS "${HIGHS_INCLUDE_DIR}/HConfig.h" _highs_version_lines
       REGEX "#define HIGHS_VERSION_(MAJOR|MINOR|PATCH) ")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*#define HIGHS_VERSION_${_part} ([0-9]+).*" "\\1" _highs_${_part}
                         "${_highs_version_lines}")
  endforeach()
  set(Highs_VERSION "${_highs_MAJOR}.${_highs_MINOR}.${_highs_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(
  Highs
  REQUIRED_VARS HIGHS_LIBRARY HIGHS_INCLUDE_DIR
  VERSION_VAR Highs_VERSION
  FAIL_MESSAGE "HiGHS not found: run scripts/setup.sh (installs PyPI's highsbox wheel with python3 -m pip) or pass -DHIGHS_ROOT=<prefix>")

if(Highs_FOUND)
  get_filename_component(_highs_include_root "${HIGHS_INCLUDE_DIR}" DIRECTORY)
  add_library(highs::highs SHARED IMPORTED)
  # highs_c_api.h includes its neighbours relative to include/highs, and highs_export.h from
  # include/ itself.
  set_target_properties(highs::highs PROPERTIES
    IMPORTED_LOCATION "${HIGHS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${HIGHS_INCLUDE_DIR};${_highs_include_root}")
endif()
