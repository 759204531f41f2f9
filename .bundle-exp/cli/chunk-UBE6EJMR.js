// src/interfaces/cli/with-store.ts
function storeLocation(context, command) {
  return command.optsWithGlobals().store ?? context.defaultStore;
}
async function withStore(context, command, use, options = {}) {
  const stores = await context.openStores(storeLocation(context, command), options);
  try {
    return await use(stores);
  } finally {
    await stores.close();
  }
}

export {
  storeLocation,
  withStore
};
