#pragma once
// What libstint.so exports. The library is built with -fvisibility=hidden:
// whatever lib/src declares stays inside it. The declarations of the public
// headers (lib/include/stint) are made between STINT_API_BEGIN and
// STINT_API_END, and only those are exported: the tools, the example
// program and other programs link against them, and nothing else.

#define STINT_API_BEGIN _Pragma("GCC visibility push(default)")
#define STINT_API_END _Pragma("GCC visibility pop")
