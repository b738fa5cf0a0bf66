// The source the planted README quotes (docs.quotes-planted).
export function example() {
  // [docs:kept]
  const kept = 1;        // quoted exactly: no problem
  // [docs:end]
  // [docs:drifted]
  const drifted = 2;     // the README shows another value: problem 1
  // [docs:end]
  // [docs:unquoted]
  const unquoted = 3;    // quoted nowhere: problem 5
  // [docs:end]
  return kept + drifted + unquoted;
}
