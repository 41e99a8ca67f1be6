# What `cmake --install` puts in place, in two components:
#   runtime  bin/gpuadvisor (stripped in Release builds and by --strip), one man page per
#            command, the bash, zsh and fish completions
#   dev      the public headers, libgpuadvisor.a (gpuadvisor::gpuadvisor, the built-in catalog
#            compiled in; --strip takes its debug information out), the CMake package
#            (find_package(gpuadvisor)) and gpuadvisor.pc
# The man pages and completions are read off the command tree by the built binary
# (`gpuadvisor __generate`): GPUADVISOR_GENERATE_DOCS=OFF (the default when cross-compiling)
# leaves them out, as a binary that cannot run here cannot write them.
include(CMakePackageConfigHelpers)

if(CMAKE_CROSSCOMPILING)
  set(gpuadvisor_generate_default OFF)
else()
  set(gpuadvisor_generate_default ON)
endif()
option(GPUADVISOR_GENERATE_DOCS "Generate the man pages and completions with the built binary"
       ${gpuadvisor_generate_default})

set(GPUADVISOR_MAN_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated/man)
set(GPUADVISOR_COMPLETIONS_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated/completions)
if(GPUADVISOR_GENERATE_DOCS)
  set(completions ${GPUADVISOR_COMPLETIONS_DIR}/gpuadvisor.bash
                  ${GPUADVISOR_COMPLETIONS_DIR}/_gpuadvisor
                  ${GPUADVISOR_COMPLETIONS_DIR}/gpuadvisor.fish)
  add_custom_command(
    OUTPUT ${GPUADVISOR_MAN_DIR}/gpuadvisor.1 ${completions}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${GPUADVISOR_MAN_DIR}
    COMMAND gpuadvisor __generate man ${GPUADVISOR_MAN_DIR}
    COMMAND gpuadvisor __generate completions bash ${GPUADVISOR_COMPLETIONS_DIR}/gpuadvisor.bash
    COMMAND gpuadvisor __generate completions zsh ${GPUADVISOR_COMPLETIONS_DIR}/_gpuadvisor
    COMMAND gpuadvisor __generate completions fish ${GPUADVISOR_COMPLETIONS_DIR}/gpuadvisor.fish
    DEPENDS gpuadvisor
    COMMENT "Man pages and shell completions from the command tree"
    VERBATIM)
  add_custom_target(gpuadvisor_docs ALL DEPENDS ${GPUADVISOR_MAN_DIR}/gpuadvisor.1 ${completions})
endif()

# runtime
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  install(CODE "set(CMAKE_INSTALL_DO_STRIP ON)" COMPONENT runtime)
endif()
install(TARGETS gpuadvisor RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
if(GPUADVISOR_GENERATE_DOCS)
  install(DIRECTORY ${GPUADVISOR_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          COMPONENT runtime FILES_MATCHING PATTERN "*.1")
  install(FILES ${GPUADVISOR_COMPLETIONS_DIR}/gpuadvisor.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gpuadvisor
          COMPONENT runtime)
  install(FILES ${GPUADVISOR_COMPLETIONS_DIR}/_gpuadvisor
          DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT runtime)
  install(FILES ${GPUADVISOR_COMPLETIONS_DIR}/gpuadvisor.fish
          DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT runtime)
endif()

# dev
set(GPUADVISOR_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpuadvisor)
install(TARGETS gpuadvisor_core EXPORT gpuadvisorTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
# Stripping leaves static libraries alone; their debug information goes (as dh_strip does).
install(CODE "if(CMAKE_INSTALL_DO_STRIP)
  execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:gpuadvisor_core>\"
    COMMAND_ERROR_IS_FATAL ANY)
endif()" COMPONENT dev)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/gpuadvisor
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
install(EXPORT gpuadvisorTargets NAMESPACE gpuadvisor:: DESTINATION ${GPUADVISOR_CMAKE_DIR}
        COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/gpuadvisorConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/gpuadvisorConfig.cmake INSTALL_DESTINATION ${GPUADVISOR_CMAKE_DIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gpuadvisorConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpuadvisorConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/gpuadvisorConfigVersion.cmake
        DESTINATION ${GPUADVISOR_CMAKE_DIR} COMPONENT dev)

# gpuadvisor.pc, relocatable: the prefix is found from the file's own place.
set(GPUADVISOR_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH GPUADVISOR_PC_TO_PREFIX /prefix/${GPUADVISOR_PC_DIR} /prefix)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/gpuadvisor.pc.in
               ${CMAKE_CURRENT_BINARY_DIR}/gpuadvisor.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpuadvisor.pc DESTINATION ${GPUADVISOR_PC_DIR}
        COMPONENT dev)
