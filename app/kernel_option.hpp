// --kernels NAME (or ATTNSCOPE_KERNELS), --products NAME (or ATTNSCOPE_PRODUCTS) and --kernel-info:
// which OpenBLAS kernels the model products run (issue 16), and whether BF16 weights are multiplied
// in BF16 (issue 31). The choice itself is applied before main() by core/kernels/startup.cpp; here it is
// checked (a bad name or a family this CPU cannot run: exit 1 with a message) and described.
#pragma once

#include <QStringList>
#include <optional>
#include <string>

namespace attnscope {

// The arguments without --kernels/--products NAME (or =NAME) and --kernel-info, for the other parsers.
QStringList withoutKernelOptions(const QStringList& arguments);
// Why the requested kernels cannot be used, or nullopt.
std::optional<std::string> kernelOptionError(const QStringList& arguments);
bool wantsKernelInfo(const QStringList& arguments);
// The BLAS, the kernels running, who chose them, the CPU's features and the BF16 products' path.
std::string kernelInfoText();

}  // namespace attnscope
