// Prettier for the package's TypeScript sources (web/package/src); ctest web.prettier checks them.
export default { printWidth: 120, singleQuote: true, trailingComma: 'all' };
