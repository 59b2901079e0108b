# Install-time step of the wheel on PyPI's torch (python/CMakeLists.txt): copies into gaus/lib
# every shared library that the extension, the plugins (GAUS_BUNDLE_LIBRARIES) and the program
# (GAUS_BUNDLE_EXECUTABLES) load, less the C and C++ runtime, which any newer Linux has, and less
# torch's, Z3's and HiGHS's, which their wheels bring beside the package. The same rule as the
# GPU bundle's (scripts/gpu-bundle.sh); auditwheel's repair does the like for manylinux wheels.
# OpenSSL's libcrypto.so.3 stays the system's too: every distribution with Python 3 has it, and
# a carried copy of another patch release would also serve Python's ssl module, whose libssl
# expects its own (auditwheel renames its copies to avoid that; this step does not rename).
file(GET_RUNTIME_DEPENDENCIES
  LIBRARIES ${GAUS_BUNDLE_LIBRARIES}
  EXECUTABLES ${GAUS_BUNDLE_EXECUTABLES}
  RESOLVED_DEPENDENCIES_VAR gaus_bundle_resolved
  UNRESOLVED_DEPENDENCIES_VAR gaus_bundle_unresolved
  PRE_EXCLUDE_REGEXES
    "^(linux-vdso|ld-linux[^ ]*|libc|libm|libdl|librt|libpthread|libutil|libresolv|libstdc\\+\\+|libgcc_s|libcrypto)\\.so"
    "^lib(torch|torch_cpu|torch_cuda|c10|c10_cuda|z3|highs)\\.so")
if(gaus_bundle_unresolved)
  message(FATAL_ERROR "gaus wheel: cannot find ${gaus_bundle_unresolved}, which the package loads")
endif()
set(gaus_bundle_folder "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/gaus/lib")
file(MAKE_DIRECTORY "${gaus_bundle_folder}")
foreach(gaus_bundle_library IN LISTS gaus_bundle_resolved)
  # By the name the loader asks for (the soname link's), with the content of the file it names.
  get_filename_component(gaus_bundle_name "${gaus_bundle_library}" NAME)
  file(REAL_PATH "${gaus_bundle_library}" gaus_bundle_file)
  message(STATUS "gaus wheel: carries ${gaus_bundle_name} (${gaus_bundle_file})")
  file(COPY_FILE "${gaus_bundle_file}" "${gaus_bundle_folder}/${gaus_bundle_name}")
endforeach()
