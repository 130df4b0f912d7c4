#include "app/kernel_option.hpp"

#include "core/kernels/startup.hpp"
#include "app/cli_support.hpp"
#include "core/model/bf16_products.hpp"
#include "core/model/blas_kernels.hpp"

namespace attnscope {

namespace {

bool takesValue(const QString& argument) {
    return argument == QLatin1String("--kernels") || argument == QLatin1String("--products");
}

bool isKernelOption(const QString& argument) {
    return argument.startsWith(QLatin1String("--kernels=")) || argument.startsWith(QLatin1String("--products=")) ||
           argument == QLatin1String("--kernel-info");
}

QString latin1(std::string_view text) { return QString::fromLatin1(text.data(), int(text.size())); }

// The name asked for by `option` (from the start-up hook), "" for the option without a value, else "auto".
QString givenName(const QStringList& arguments, const char* requested, const char* option) {
    if (requested) return QString::fromLocal8Bit(requested);
    return arguments.mid(1).endsWith(QLatin1String(option)) ? QString() : QStringLiteral("auto");
}

QString sourceName(const char* source, const char* option) { return QString::fromLatin1(source ? source : option); }

QString expectsOneOf(const QString& source, std::string_view names, const QString& given) {
    return translate("cli", "%1 expects one of %2, got \"%3\"").arg(source, latin1(names), given);
}

std::optional<std::string> kernelFamilyError(const QStringList& arguments) {
    const StartupKernels& startup = startupKernels();
    const QString given = givenName(arguments, startup.requested, "--kernels");
    const QString source = sourceName(startup.source, "--kernels");
    const auto family = parseKernelFamily(given.toStdString());
    if (!family) return expectsOneOf(source, kKernelFamilyNames, given).toStdString();
    const CpuFeatures cpu = detectCpuFeatures();
    if (!decideKernels(*family, cpu).runnable)
        return translate("cli", "%1 %2: this CPU cannot run these kernels (its features: %3)")
            .arg(source, latin1(kernelFamilyName(*family)), QString::fromStdString(cpuFeatureText(cpu)))
            .toStdString();
    return std::nullopt;
}

// --products bf16 where the CPU has no AVX512_BF16 or the build no oneDNN: refused, as forced kernels are.
std::optional<std::string> productsError(const QStringList& arguments) {
    const StartupKernels& startup = startupKernels();
    const QString given = givenName(arguments, startup.productsRequested, "--products");
    const QString source = sourceName(startup.productsSource, "--products");
    const auto choice = parseProductsChoice(given.toStdString());
    if (!choice) return expectsOneOf(source, kProductsChoiceNames, given).toStdString();
    const CpuFeatures cpu = detectCpuFeatures();
    if (decideProducts(*choice, cpu, haveBf16Library()).runnable) return std::nullopt;
    if (!haveBf16Library())
        return translate("cli", "%1 bf16: this build has no oneDNN (libdnnl-dev); its products are float32")
            .arg(source)
            .toStdString();
    return translate("cli", "%1 bf16: this CPU cannot multiply in BF16 (it needs avx512bf16; its features: %2)")
        .arg(source, QString::fromStdString(cpuFeatureText(cpu)))
        .toStdString();
}

QString productsInfo() {
    const StartupKernels& startup = startupKernels();
    const QString path = bf16ProductsActive()
                             ? translate("cli", "bf16 through %1").arg(QString::fromStdString(bf16LibraryText()))
                             : translate("cli", "f32 (each weight matrix widened to float32 in turn)");
    const QString chosenBy = startup.productsSource ? QStringLiteral("%1 %2").arg(QString::fromLatin1(startup.productsSource),
                                                                                  QString::fromLocal8Bit(startup.productsRequested))
                                                    : QStringLiteral("auto");
    return translate("cli", "Products of BF16 weights: %1 (chosen by %2)\n"
                            "Choose with --products NAME or ATTNSCOPE_PRODUCTS=NAME: %3\n")
        .arg(path, chosenBy, latin1(kProductsChoiceNames));
}

}  // namespace

QStringList withoutKernelOptions(const QStringList& arguments) {
    QStringList kept;
    for (int i = 0; i < arguments.size(); ++i) {
        if (i > 0 && takesValue(arguments[i])) ++i;  // and its value
        else if (i == 0 || !isKernelOption(arguments[i])) kept << arguments[i];
    }
    return kept;
}

bool wantsKernelInfo(const QStringList& arguments) {
    return arguments.mid(1).contains(QLatin1String("--kernel-info"));
}

std::optional<std::string> kernelOptionError(const QStringList& arguments) {
    if (auto error = kernelFamilyError(arguments)) return error;
    return productsError(arguments);
}

std::string kernelInfoText() {
    const StartupKernels& startup = startupKernels();
    const std::string core = activeBlasCore();
    if (core.empty())
        return (translate("cli", "BLAS: none (this build uses Eigen for every product)\n") + productsInfo()).toStdString();
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
                                  latin1(kKernelFamilyNames));
    return (text + productsInfo()).toStdString();
}

}  // namespace attnscope
