# Warnings for our own targets only (linked as an INTERFACE target), as in ccache's
# StandardWarnings.cmake. GPUADVISOR_WERROR turns them into errors (CI does).
add_library(gpuadvisor_warnings INTERFACE)
target_compile_options(gpuadvisor_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast
  -Wnon-virtual-dtor -Woverloaded-virtual -Wdouble-promotion -Wformat=2
  -Wimplicit-fallthrough)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(gpuadvisor_warnings INTERFACE
    -Wduplicated-cond -Wduplicated-branches -Wlogical-op)
  # GCC 12 at -O3 warns of overlapping memcpy inside std::string's own assignment, where
  # none can happen (GCC bug 105329); which lines it flags shifts with unrelated edits.
  if(CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12 AND
     CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(gpuadvisor_warnings INTERFACE -Wno-restrict)
  endif()
endif()
if(GPUADVISOR_WERROR)
  target_compile_options(gpuadvisor_warnings INTERFACE -Werror)
endif()
