#include "app/kernel_option.hpp"

#include "core/kernels/startup.hpp"
#include "app/cli_support.hpp"
#include "core/model/blas_kernels.hpp"

namespace attnscope {

QStringList withoutKernelOptions(const QStringList& arguments) {
    QStringList kept;
    for (int i = 0; i < arguments.size(); ++i) {
        if (i > 0 && arguments[i] == QLatin1String("--kernels")) ++i;  // and its value
        else if (i == 0 || (!arguments[i].startsWith(QLatin1String("--kernels=")) &&
                            arguments[i] != QLatin1String("--kernel-info")))
            kept << arguments[i];
    }
    return kept;
}

bool wantsKernelInfo(const QStringList& arguments) {
    return arguments.mid(1).contains(QLatin1String("--kernel-info"));
}

namespace {

QString familyText(KernelFamily family) {
    return QString::fromLatin1(kernelFamilyName(family).data(), int(kernelFamilyName(family).size()));
}

}  // namespace

std::optional<std::string> kernelOptionError(const QStringList& arguments) {
    const StartupKernels& startup = startupKernels();
    const QString given = startup.requested ? QString::fromLocal8Bit(startup.requested)
                          : arguments.mid(1).endsWith(QLatin1String("--kernels")) ? QString()
                                                                                     : QStringLiteral("auto");
    const QString source = startup.source ? QString::fromLatin1(startup.source) : QStringLiteral("--kernels");
    const auto family = parseKernelFamily(given.toStdString());
    if (!family)
        return translate("cli", "%1 expects one of %2, got \"%3\"")
            .arg(source, QString::fromLatin1(kKernelFamilyNames.data(), int(kKernelFamilyNames.size())), given)
            .toStdString();
    const CpuFeatures cpu = detectCpuFeatures();
    if (!decideKernels(*family, cpu).runnable)
        return translate("cli", "%1 %2: this CPU cannot run these kernels (its features: %3)")
            .arg(source, familyText(*family), QString::fromStdString(cpuFeatureText(cpu)))
            .toStdString();
    return std::nullopt;
}

std::string kernelInfoText() {
    const StartupKernels& startup = startupKernels();
    const std::string core = activeBlasCore();
    if (core.empty()) return translate("cli", "BLAS: none (this build uses Eigen for every product)\n").toStdString();
    QString chosenBy;
    if (startup.userCoreType) chosenBy = translate("cli", "OPENBLAS_CORETYPE, set by you");
    else if (!startup.coreTypeSet) chosenBy = translate("cli", "OpenBLAS's own detection");
    else if (startup.source)
        chosenBy = QStringLiteral("%1 %2").arg(QString::fromLatin1(startup.source), QString::fromLocal8Bit(startup.requested));
    else chosenBy = translate("cli", "AttnScope, from the CPU's features (auto)");
    const QString text = translate("cli", "BLAS: %1\nKernels: %2 (chosen by %3)\nCPU features: %4\n"
                                          "Choose with --kernels NAME or ATTNSCOPE_KERNELS=NAME: %5\n")
                             .arg(QString::fromStdString(blasConfig()), QString::fromStdString(core), chosenBy,
                                  QString::fromStdString(cpuFeatureText(detectCpuFeatures())),
                                  QString::fromLatin1(kKernelFamilyNames.data(), int(kKernelFamilyNames.size())));
    return text.toStdString();
}

}  // namespace attnscope
