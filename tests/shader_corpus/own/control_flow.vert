#version 300 es
// expect: accept
// Section 6.3 - 6.4: if/else chains, for, while and do-while loops with break and continue,
// switch with fall-through, default in the middle and a case without statements before another.
precision highp float;
in vec4 a;
in int selector;
out vec4 out_loops;
out vec4 out_switch;
void main() {
    float sum = 0.0;
    for (int i = 0; i < 8; ++i) {
        if (i == 2) continue;
        if (float(i) > a.x * 6.0) break;
        sum += float(i) * a.y;
    }
    int w = 0;
    while (w < 5) {
        w += 2;
    }
    float d = a.z;
    int guard = 0;
    do {
        d *= 0.5;
        guard++;
    } while (d > 0.1 && guard < 20);
    float s = 0.0;
    switch (selector % 6) {
    case 0:
        s += 1.0; // falls through
    case 1:
        s += 10.0;
        break;
    case 2:
    case 3:
        s = 100.0;
        break;
    default:
        s = -1.0;
        // falls through
    case 5: {
        s += 1000.0;
    }
    }
    float grade;
    if (a.w < 0.5) grade = 0.0;
    else if (a.w < 1.0) grade = 1.0;
    else grade = 2.0;
    out_loops = vec4(sum, float(w), d, float(guard));
    out_switch = vec4(s, grade, 0.0, 1.0);
}
