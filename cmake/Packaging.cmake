# `cpack -G DEB`: gpuadvisor (the runtime component: the program, man pages, completions) and
# gpuadvisor-dev (the dev component: headers, libgpuadvisor.a, the CMake and pkg-config
# files). gpuadvisor's Depends are computed by dpkg-shlibdeps (package dpkg-dev) from the
# libraries the program links (yaml-cpp, fmt, libstdc++, libc). The files are stripped, as a
# Debian package's are.
set(CPACK_PACKAGE_NAME gpuadvisor)
set(CPACK_PACKAGE_VENDOR "gpuadvisor")
set(CPACK_PACKAGE_CONTACT "gpuadvisor maintainers <gpuadvisor@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Sizes and prices GPU cloud configurations")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "Which GPU cloud configuration to buy for a workload, what it costs and why")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "The gpuadvisor library (static), its headers, CMake package and pkg-config file")

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME gpuadvisor)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME gpuadvisor-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# What find_package(gpuadvisor) and `pkg-config gpuadvisor` look for in turn.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libyaml-cpp-dev (>= 0.7), libfmt-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)

include(CPack)
