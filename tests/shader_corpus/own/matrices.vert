#version 300 es
// expect: accept
// Section 5.10 and 8.6: matrix arithmetic (matrix x vector, vector x matrix, matrix x matrix,
// component-wise with scalars) and the matrix functions, inverse() and determinant() included.
precision highp float;
in vec4 a;
in vec4 b;
uniform mat4 model;
out vec4 out_product;
out vec4 out_functions;
out vec4 out_inverse;
void main() {
    mat2 m2 = mat2(a.x + 2.0, a.y, b.x, b.y + 2.0);
    mat3 m3 = mat3(a.xyz, b.xyz, vec3(1.0, 0.0, 3.0));
    mat4 m4 = model * mat4(a, b, a.wzyx, vec4(0.0, 0.0, 0.0, 1.0));
    vec4 mv = m4 * b;
    vec4 vm = b * m4;
    mat2 sum = m2 + m2 * 0.5 - mat2(1.0);
    mat2x3 outer = outerProduct(a.xyz, b.xy);
    mat3x2 t = transpose(outer);
    mat2 cm = matrixCompMult(m2, sum);
    mat2 inv2 = inverse(m2);
    mat3 inv3 = inverse(m3 + mat3(4.0));
    out_product = mv + vm;
    out_functions = vec4(determinant(m2), determinant(m3), t[1][1] + cm[0][1], (outer * b.xy).z);
    out_inverse = vec4(inv2[0][0], inv2[1][1], inv3[2][2], inv3[0][1]);
}
