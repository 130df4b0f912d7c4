# The libFuzzer targets, each with its seed corpus fuzz/corpus/<corpus>/ and optional dictionary
# fuzz/<target>.dict. Read by fuzz/CMakeLists.txt (the clang build) and tests/CMakeLists.txt (the
# fuzz.<target> ctest entries of the normal build).
set(ATTNSCOPE_FUZZ_TARGETS safetensors_header_fuzz tokenizer_fuzz lesson_fuzz config_fuzz settings_fuzz)
# Where dev.sh configures the clang fuzz build, inside the normal build folder.
set(ATTNSCOPE_FUZZ_BUILD_DIR "${CMAKE_BINARY_DIR}/fuzz-clang")
set(ATTNSCOPE_FUZZ_SECONDS 20 CACHE STRING "How long each fuzz.<target> ctest entry fuzzes")
