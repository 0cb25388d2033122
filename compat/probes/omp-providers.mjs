// Prints the ids of every model provider omp 18 knows: those it looks for models at on every
// start, whatever the settings, unless the provider is disabled, and those whose bundled
// catalog it refreshes from a shared online catalog.
// Usage: bun omp-providers.mjs <omp install dir>
const catalog = `${process.argv[2]}/node_modules/@oh-my-pi/pi-catalog/src`;
const { PROVIDER_DESCRIPTORS } = await import(`${catalog}/provider-models/index.ts`);
const { getBundledProviders } = await import(`${catalog}/models.ts`);
const ids = new Set([...PROVIDER_DESCRIPTORS.map((d) => d.providerId), ...getBundledProviders()]);
process.stdout.write(`${JSON.stringify([...ids].sort())}\n`);
