// Planted for ctest web.prettier-planted (tests/web/lint.mjs): this file is not in Prettier's style: 1.
export const twice = (x:number)=>{return x*2};
