// --kernels NAME (or ATTNSCOPE_KERNELS) and --kernel-info: which OpenBLAS kernels the model products
// run (issue 16). The choice itself is applied before main() by core/kernels/startup.cpp; here it is
// checked (a bad name or a family this CPU cannot run: exit 1 with a message) and described.
#pragma once

#include <QStringList>
#include <optional>
#include <string>

namespace attnscope {

// The arguments without --kernels NAME, --kernels=NAME and --kernel-info, for the other parsers.
QStringList withoutKernelOptions(const QStringList& arguments);
// Why the requested kernels cannot be used, or nullopt.
std::optional<std::string> kernelOptionError(const QStringList& arguments);
bool wantsKernelInfo(const QStringList& arguments);
// The BLAS, the kernels running, who chose them and the CPU's features; several lines.
std::string kernelInfoText();

}  // namespace attnscope
