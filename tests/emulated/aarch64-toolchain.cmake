# Cross-compiling for the emulated-PMU lane's arm64 guest with Debian's
# gcc-aarch64-linux-gnu. Libraries and headers come only from the cross libc and from
# the arm64 packages lane.sh unpacked into PMUTOP_ARM64_ROOT, never from the host.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# From the command line (-D) or, inside try_compile projects where -D values are not
# forwarded, from the environment.
if(NOT PMUTOP_ARM64_ROOT)
  set(PMUTOP_ARM64_ROOT "$ENV{PMUTOP_ARM64_ROOT}")
endif()
if(NOT PMUTOP_ARM64_ROOT)
  message(FATAL_ERROR "aarch64-toolchain.cmake: set PMUTOP_ARM64_ROOT to the unpacked arm64 packages (lane.sh does)")
endif()
set(ENV{PMUTOP_ARM64_ROOT} "${PMUTOP_ARM64_ROOT}")

set(CMAKE_FIND_ROOT_PATH "${PMUTOP_ARM64_ROOT}" /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads only the arm64 packages' .pc files (libbpf's), with their paths under
# the root: the host's libbpf.pc would name the host's x86_64 libraries.
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_LIBDIR} "${PMUTOP_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${PMUTOP_ARM64_ROOT}")
