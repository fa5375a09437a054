# The Debian packages, made with `cpack -G DEB` in a build folder (docs/install.md):
#   memkit         the CLI, libmemkit.so.0.<minor>, completions, man pages, LICENSE, CHANGELOG
#                  (CPack component Runtime); Depends computed by dpkg-shlibdeps from the binaries
#   libmemkit-dev  headers, libmemkit.a, libmemkit_core.a, the CMake package and the .pc files
#                  (component Development); Depends on memkit of the same version and libfmt-dev
# Two packages, as Debian splits a library: a program that only runs memkit, or loads libmemkit
# through a binding, needs no headers, static archives or fmt's headers.
# Included by cmake/MemkitInstall.cmake.
set(CPACK_PACKAGE_NAME memkit)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The memkit authors")
set(MEMKIT_PACKAGE_MAINTAINER "The memkit authors <maintainers@memkit.invalid>"
    CACHE STRING "The Maintainer field of the Debian packages")
set(CPACK_PACKAGE_CONTACT "${MEMKIT_PACKAGE_MAINTAINER}")
# The Debian descriptions: a synopsis, then lines of the long text (CPackDeb takes the first line
# as the synopsis while CPACK_PACKAGE_DESCRIPTION_SUMMARY keeps its default).
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "agent memory in Markdown kept small, true and safe
memkit keeps the Markdown memory files of AI agents within budget and free of
duplicates, stale and contradicted facts, with reviewable plans (a Plan ID a
person or agent confirms), lossless round trips and crash-safe writes. It serves
the MemoryBox, Gaia curated, memory-custodian and three-tier layouts, recall
across all of them, context under a token budget, and an MCP server.
.
This package holds the memkit command, the shared library libmemkit.so with its
stable C ABI (loaded by the Python, Rust and Node bindings), shell completions
and manual pages.")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION "development files of memkit, agent memory in Markdown
memkit's C ABI (memkit.h, and libmemkit.a for static links) and its C++20 API
(libmemkit_core.a), for building programs against memkit with
find_package(memkit) (components c and cpp) or pkg-config (memkit, memkit-cpp).")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_FILE_NAME memkit-${PROJECT_VERSION})  # archive generators; DEB names its own
set(CPACK_COMPONENTS_ALL Runtime Development)
set(CPACK_PACKAGE_INSTALL_DIRECTORY memkit)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # <name>_<version>-<release>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME memkit)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# `memorybox sync --remote postgres` loads libpq.so.5 when a remote first connects.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS "libpq5")
# A shlibs file naming libmemkit.so's soname, for packages built against it: each minor version
# before 1.0 is its own ABI, so a dependent package needs exactly this version ("=").
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")
set(CPACK_STRIP_FILES ON)  # as Debian's packages are: the CLI and libmemkit.so without debug symbols
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libmemkit-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "memkit (= ${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}), libfmt-dev")
include(CPack)
