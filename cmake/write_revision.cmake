# Writes OUT (a header defining GPUADVISOR_REVISION) from `git describe` of SOURCE_DIR, run at
# every build; the file is rewritten only when the revision changed, so nothing rebuilds
# otherwise. Outside a git checkout (a source tarball) the revision is "unknown".
execute_process(
  COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE revision
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE failed)
if(failed OR revision STREQUAL "")
  set(revision "unknown")
endif()
set(text "#define GPUADVISOR_REVISION \"${revision}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
