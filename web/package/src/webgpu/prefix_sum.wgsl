// Emitted outputs: the exclusive prefix sum of the per-element counts, level by level (256 per
// work group; each level's group totals are the next level's input), then each level's scanned
// totals added back down, then the budget's totals. Fixed order of additions: deterministic.
// Buffers are sized exactly, so arrayLength() is each level's element count.
@group(0) @binding(0) var<storage, read> xin: array<u32>;
@group(0) @binding(1) var<storage, read_write> xout: array<u32>;
@group(0) @binding(2) var<storage, read_write> xsums: array<u32>;
var<workgroup> partial: array<u32, 256>;

@compute @workgroup_size(256)
fn scan(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) g: vec3<u32>) {
  let i = g.x * 256u + l;
  let n = arrayLength(&xout);
  var x = 0u;
  if (i < n) { x = xin[i]; }
  partial[l] = x;
  workgroupBarrier();
  for (var d = 1u; d < 256u; d <<= 1u) {
    var add = 0u;
    if (l >= d) { add = partial[l - d]; }
    workgroupBarrier();
    partial[l] += add;
    workgroupBarrier();
  }
  if (i < n) { xout[i] = partial[l] - x; }
  if (l == 255u) { xsums[g.x] = partial[l]; }
}

@compute @workgroup_size(256)
fn add(@builtin(global_invocation_id) i: vec3<u32>) {
  if (i.x < arrayLength(&xsums)) { xsums[i.x] += xin[i.x / 256u]; }
}

// The budget's totals at slot x 8 words: written, 1, 0, 0 (drawIndirect), groups, 1, 1
// (dispatchWorkgroupsIndirect), requested.
override capacity: u32 = 0u;
override slot: u32 = 0u;
override groupSize: u32 = 1u;
@compute @workgroup_size(1)
fn total() {
  let n = arrayLength(&xin);
  let requested = xout[n - 1u] + xin[n - 1u];
  let written = min(requested, capacity);
  let o = slot * 8u;
  xsums[o] = written; xsums[o + 1u] = 1u; xsums[o + 2u] = 0u; xsums[o + 3u] = 0u;
  xsums[o + 4u] = (written + groupSize - 1u) / groupSize; xsums[o + 5u] = 1u; xsums[o + 6u] = 1u;
  xsums[o + 7u] = requested;
}
