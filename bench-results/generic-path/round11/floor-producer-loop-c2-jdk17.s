
/tmp/tmplmnfhe1g:     file format binary


Disassembly of section .data:

00007f6d64ed7be0 <.data>:
    7f6d64ed7be0:	89 84 24 00 c0 fe ff 	mov    %eax,-0x14000(%rsp)
    7f6d64ed7be7:	55                   	push   %rbp
    7f6d64ed7be8:	48 83 ec 40          	sub    $0x40,%rsp
    7f6d64ed7bec:	48 89 54 24 08       	mov    %rdx,0x8(%rsp)
    7f6d64ed7bf1:	4c 8b ee             	mov    %rsi,%r13
    7f6d64ed7bf4:	48 83 fe 01          	cmp    $0x1,%rsi
    7f6d64ed7bf8:	0f 8c c3 02 00 00    	jl     0x7f6d64ed7ec1
    7f6d64ed7bfe:	41 ba 01 00 00 00    	mov    $0x1,%r10d
    7f6d64ed7c04:	4c 3b d6             	cmp    %rsi,%r10
    7f6d64ed7c07:	bd ff ff ff ff       	mov    $0xffffffff,%ebp
    7f6d64ed7c0c:	7c 08                	jl     0x7f6d64ed7c16
    7f6d64ed7c0e:	40 0f 95 c5          	setne  %bpl
    7f6d64ed7c12:	40 0f b6 ed          	movzbl %bpl,%ebp
    7f6d64ed7c16:	48 85 d2             	test   %rdx,%rdx
    7f6d64ed7c19:	0f 84 db 03 00 00    	je     0x7f6d64ed7ffa
    7f6d64ed7c1f:	49 ba fe ff ff ff ff 	movabs $0x7ffffffffffffffe,%r10
    7f6d64ed7c26:	ff ff 7f 
    7f6d64ed7c29:	49 3b f2             	cmp    %r10,%rsi
    7f6d64ed7c2c:	0f 8f d6 03 00 00    	jg     0x7f6d64ed8008
    7f6d64ed7c32:	4c 8b d6             	mov    %rsi,%r10
    7f6d64ed7c35:	49 83 c2 01          	add    $0x1,%r10
    7f6d64ed7c39:	4c 89 54 24 18       	mov    %r10,0x18(%rsp)
    7f6d64ed7c3e:	bf 01 00 00 00       	mov    $0x1,%edi
    7f6d64ed7c43:	eb 77                	jmp    0x7f6d64ed7cbc
    7f6d64ed7c45:	4c 8b 44 24 08       	mov    0x8(%rsp),%r8
    7f6d64ed7c4a:	4d 89 90 28 01 00 00 	mov    %r10,0x128(%r8)
    7f6d64ed7c51:	4f 8d 14 dc          	lea    (%r12,%r11,8),%r10
    7f6d64ed7c55:	4d 8d 74 b2 10       	lea    0x10(%r10,%rsi,4),%r14
    7f6d64ed7c5a:	41 80 7f 38 00       	cmpb   $0x0,0x38(%r15)
    7f6d64ed7c5f:	0f 85 c9 01 00 00    	jne    0x7f6d64ed7e2e
    7f6d64ed7c65:	41 89 2e             	mov    %ebp,(%r14)
    7f6d64ed7c68:	48 83 c3 01          	add    $0x1,%rbx
    7f6d64ed7c6c:	4c 8b d1             	mov    %rcx,%r10
    7f6d64ed7c6f:	4d 8b de             	mov    %r14,%r11
    7f6d64ed7c72:	4d 33 d3             	xor    %r11,%r10
    7f6d64ed7c75:	49 c1 ea 16          	shr    $0x16,%r10
    7f6d64ed7c79:	4d 85 d2             	test   %r10,%r10
    7f6d64ed7c7c:	74 1a                	je     0x7f6d64ed7c98
    7f6d64ed7c7e:	49 c1 eb 09          	shr    $0x9,%r11
    7f6d64ed7c82:	48 bf 00 20 86 76 6d 	movabs $0x7f6d76862000,%rdi
    7f6d64ed7c89:	7f 00 00 
    7f6d64ed7c8c:	49 03 fb             	add    %r11,%rdi
    7f6d64ed7c8f:	80 3f 04             	cmpb   $0x4,(%rdi)
    7f6d64ed7c92:	0f 85 cc 01 00 00    	jne    0x7f6d64ed7e64
    7f6d64ed7c98:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7f6d64ed7c9d:	49 89 9a 20 01 00 00 	mov    %rbx,0x120(%r10)
    7f6d64ed7ca4:	4d 8b 9f 48 03 00 00 	mov    0x348(%r15),%r11
    7f6d64ed7cab:	41 85 03             	test   %eax,(%r11)
    7f6d64ed7cae:	4c 3b 4c 24 18       	cmp    0x18(%rsp),%r9
    7f6d64ed7cb3:	0f 8d 08 02 00 00    	jge    0x7f6d64ed7ec1
    7f6d64ed7cb9:	49 8b f9             	mov    %r9,%rdi
    7f6d64ed7cbc:	4c 8b d7             	mov    %rdi,%r10
    7f6d64ed7cbf:	49 ff ca             	dec    %r10
    7f6d64ed7cc2:	4d 0f b7 d2          	movzwq %r10w,%r10
    7f6d64ed7cc6:	49 bb 08 8e ca 9e 06 	movabs $0x69eca8e08,%r11
    7f6d64ed7ccd:	00 00 00 
    7f6d64ed7cd0:	43 8b 6c 93 10       	mov    0x10(%r11,%r10,4),%ebp
    7f6d64ed7cd5:	85 ed                	test   %ebp,%ebp
    7f6d64ed7cd7:	0f 84 c6 02 00 00    	je     0x7f6d64ed7fa3
    7f6d64ed7cdd:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7f6d64ed7ce2:	49 8b 92 90 00 00 00 	mov    0x90(%r10),%rdx
    7f6d64ed7ce9:	45 8b 9a 8c 00 00 00 	mov    0x8c(%r10),%r11d
    7f6d64ed7cf0:	49 8b 9a 20 01 00 00 	mov    0x120(%r10),%rbx
    7f6d64ed7cf7:	48 8b f2             	mov    %rdx,%rsi
    7f6d64ed7cfa:	48 23 f3             	and    %rbx,%rsi
    7f6d64ed7cfd:	49 8d 0c ec          	lea    (%r12,%rbp,8),%rcx
    7f6d64ed7d01:	4c 8b cf             	mov    %rdi,%r9
    7f6d64ed7d04:	49 83 c1 01          	add    $0x1,%r9
    7f6d64ed7d08:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7f6d64ed7d0d:	49 3b 9a 28 01 00 00 	cmp    0x128(%r10),%rbx
    7f6d64ed7d14:	0f 8c 37 ff ff ff    	jl     0x7f6d64ed7c51
    7f6d64ed7d1a:	4d 63 92 98 00 00 00 	movslq 0x98(%r10),%r10
    7f6d64ed7d21:	4c 03 d3             	add    %rbx,%r10
    7f6d64ed7d24:	4d 8b c2             	mov    %r10,%r8
    7f6d64ed7d27:	4c 23 c2             	and    %rdx,%r8
    7f6d64ed7d2a:	4b 8d 14 dc          	lea    (%r12,%r11,8),%rdx
    7f6d64ed7d2e:	46 3b 64 82 10       	cmp    0x10(%rdx,%r8,4),%r12d
    7f6d64ed7d33:	0f 84 0c ff ff ff    	je     0x7f6d64ed7c45
    7f6d64ed7d39:	44 3b 64 b2 10       	cmp    0x10(%rdx,%rsi,4),%r12d
    7f6d64ed7d3e:	0f 84 0d ff ff ff    	je     0x7f6d64ed7c51
    7f6d64ed7d44:	48 89 4c 24 20       	mov    %rcx,0x20(%rsp)
    7f6d64ed7d49:	4c 89 4c 24 28       	mov    %r9,0x28(%rsp)
    7f6d64ed7d4e:	48 89 7c 24 10       	mov    %rdi,0x10(%rsp)
    7f6d64ed7d53:	4c 89 2c 24          	mov    %r13,(%rsp)
    7f6d64ed7d57:	e8 24 23 ab ff       	call   0x7f6d6498a080
    7f6d64ed7d5c:	4d 8b 97 48 03 00 00 	mov    0x348(%r15),%r10
    7f6d64ed7d63:	41 85 02             	test   %eax,(%r10)
    7f6d64ed7d66:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7f6d64ed7d6b:	49 8b 9a 20 01 00 00 	mov    0x120(%r10),%rbx
    7f6d64ed7d72:	45 8b 92 8c 00 00 00 	mov    0x8c(%r10),%r10d
    7f6d64ed7d79:	4c 8b 5c 24 08       	mov    0x8(%rsp),%r11
    7f6d64ed7d7e:	4d 8b 9b 90 00 00 00 	mov    0x90(%r11),%r11
    7f6d64ed7d85:	49 8b cb             	mov    %r11,%rcx
    7f6d64ed7d88:	48 23 cb             	and    %rbx,%rcx
    7f6d64ed7d8b:	4c 8b 44 24 08       	mov    0x8(%rsp),%r8
    7f6d64ed7d90:	49 3b 98 28 01 00 00 	cmp    0x128(%r8),%rbx
    7f6d64ed7d97:	7c 31                	jl     0x7f6d64ed7dca
    7f6d64ed7d99:	4d 63 80 98 00 00 00 	movslq 0x98(%r8),%r8
    7f6d64ed7da0:	4c 03 c3             	add    %rbx,%r8
    7f6d64ed7da3:	4d 8b c8             	mov    %r8,%r9
    7f6d64ed7da6:	4d 23 cb             	and    %r11,%r9
    7f6d64ed7da9:	4f 8d 1c d4          	lea    (%r12,%r10,8),%r11
    7f6d64ed7dad:	47 3b 64 8b 10       	cmp    0x10(%r11,%r9,4),%r12d
    7f6d64ed7db2:	0f 84 f8 00 00 00    	je     0x7f6d64ed7eb0
    7f6d64ed7db8:	45 3b 64 8b 10       	cmp    0x10(%r11,%rcx,4),%r12d
    7f6d64ed7dbd:	74 0b                	je     0x7f6d64ed7dca
    7f6d64ed7dbf:	4c 8b 2c 24          	mov    (%rsp),%r13
    7f6d64ed7dc3:	48 8b 7c 24 10       	mov    0x10(%rsp),%rdi
    7f6d64ed7dc8:	eb 84                	jmp    0x7f6d64ed7d4e
    7f6d64ed7dca:	49 c1 e2 03          	shl    $0x3,%r10
    7f6d64ed7dce:	4d 8d 6c 8a 10       	lea    0x10(%r10,%rcx,4),%r13
    7f6d64ed7dd3:	41 80 7f 38 00       	cmpb   $0x0,0x38(%r15)
    7f6d64ed7dd8:	0f 85 21 01 00 00    	jne    0x7f6d64ed7eff
    7f6d64ed7dde:	41 89 6d 00          	mov    %ebp,0x0(%r13)
    7f6d64ed7de2:	48 83 c3 01          	add    $0x1,%rbx
    7f6d64ed7de6:	4c 8b 54 24 20       	mov    0x20(%rsp),%r10
    7f6d64ed7deb:	4d 8b dd             	mov    %r13,%r11
    7f6d64ed7dee:	4d 33 d3             	xor    %r11,%r10
    7f6d64ed7df1:	49 c1 ea 16          	shr    $0x16,%r10
    7f6d64ed7df5:	4d 85 d2             	test   %r10,%r10
    7f6d64ed7df8:	74 1a                	je     0x7f6d64ed7e14
    7f6d64ed7dfa:	49 c1 eb 09          	shr    $0x9,%r11
    7f6d64ed7dfe:	48 bf 00 20 86 76 6d 	movabs $0x7f6d76862000,%rdi
    7f6d64ed7e05:	7f 00 00 
    7f6d64ed7e08:	49 03 fb             	add    %r11,%rdi
    7f6d64ed7e0b:	80 3f 04             	cmpb   $0x4,(%rdi)
    7f6d64ed7e0e:	0f 85 22 01 00 00    	jne    0x7f6d64ed7f36
    7f6d64ed7e14:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7f6d64ed7e19:	49 89 9a 20 01 00 00 	mov    %rbx,0x120(%r10)
    7f6d64ed7e20:	4c 8b 2c 24          	mov    (%rsp),%r13
    7f6d64ed7e24:	4c 8b 4c 24 28       	mov    0x28(%rsp),%r9
    7f6d64ed7e29:	e9 76 fe ff ff       	jmp    0x7f6d64ed7ca4
    7f6d64ed7e2e:	45 8b 16             	mov    (%r14),%r10d
    7f6d64ed7e31:	45 85 d2             	test   %r10d,%r10d
    7f6d64ed7e34:	0f 84 2b fe ff ff    	je     0x7f6d64ed7c65
    7f6d64ed7e3a:	4d 8b 5f 20          	mov    0x20(%r15),%r11
    7f6d64ed7e3e:	49 8b fa             	mov    %r10,%rdi
    7f6d64ed7e41:	48 c1 e7 03          	shl    $0x3,%rdi
    7f6d64ed7e45:	4d 85 db             	test   %r11,%r11
    7f6d64ed7e48:	0f 84 2e 01 00 00    	je     0x7f6d64ed7f7c
    7f6d64ed7e4e:	4d 8b 57 30          	mov    0x30(%r15),%r10
    7f6d64ed7e52:	4b 89 7c 1a f8       	mov    %rdi,-0x8(%r10,%r11,1)
    7f6d64ed7e57:	49 83 c3 f8          	add    $0xfffffffffffffff8,%r11
    7f6d64ed7e5b:	4d 89 5f 20          	mov    %r11,0x20(%r15)
    7f6d64ed7e5f:	e9 01 fe ff ff       	jmp    0x7f6d64ed7c65
    7f6d64ed7e64:	4d 8b 57 40          	mov    0x40(%r15),%r10
    7f6d64ed7e68:	4d 8b 5f 50          	mov    0x50(%r15),%r11
    7f6d64ed7e6c:	f0 83 44 24 c0 00    	lock addl $0x0,-0x40(%rsp)
    7f6d64ed7e72:	80 3f 00             	cmpb   $0x0,(%rdi)
    7f6d64ed7e75:	0f 84 1d fe ff ff    	je     0x7f6d64ed7c98
    7f6d64ed7e7b:	44 88 27             	mov    %r12b,(%rdi)
    7f6d64ed7e7e:	4d 85 d2             	test   %r10,%r10
    7f6d64ed7e81:	75 1b                	jne    0x7f6d64ed7e9e
    7f6d64ed7e83:	49 8b e9             	mov    %r9,%rbp
    7f6d64ed7e86:	49 8b f7             	mov    %r15,%rsi
    7f6d64ed7e89:	49 ba 60 31 2d 7c 6d 	movabs $0x7f6d7c2d3160,%r10
    7f6d64ed7e90:	7f 00 00 
    7f6d64ed7e93:	41 ff d2             	call   *%r10
    7f6d64ed7e96:	4c 8b cd             	mov    %rbp,%r9
    7f6d64ed7e99:	e9 fa fd ff ff       	jmp    0x7f6d64ed7c98
    7f6d64ed7e9e:	4b 89 7c 13 f8       	mov    %rdi,-0x8(%r11,%r10,1)
    7f6d64ed7ea3:	49 83 c2 f8          	add    $0xfffffffffffffff8,%r10
    7f6d64ed7ea7:	4d 89 57 40          	mov    %r10,0x40(%r15)
    7f6d64ed7eab:	e9 e8 fd ff ff       	jmp    0x7f6d64ed7c98
    7f6d64ed7eb0:	4c 8b 5c 24 08       	mov    0x8(%rsp),%r11
    7f6d64ed7eb5:	4d 89 83 28 01 00 00 	mov    %r8,0x128(%r11)
    7f6d64ed7ebc:	e9 09 ff ff ff       	jmp    0x7f6d64ed7dca
    7f6d64ed7ec1:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7f6d64ed7ec6:	4d 85 d2             	test   %r10,%r10
    7f6d64ed7ec9:	0f 84 49 01 00 00    	je     0x7f6d64ed8018
    7f6d64ed7ecf:	48 8b 74 24 08       	mov    0x8(%rsp),%rsi
      ;   {oop(a 'java/lang/Long'{0x000000069eca8df0} = -9223372036854775808)}
    7f6d64ed7ed4:	48 ba f0 8d ca 9e 06 	movabs $0x69eca8df0,%rdx
    7f6d64ed7edb:	00 00 00 
    7f6d64ed7ede:	90                   	nop
    7f6d64ed7edf:	e8 9c 17 ab ff       	call   0x7f6d64989680
    7f6d64ed7ee4:	85 c0                	test   %eax,%eax
    7f6d64ed7ee6:	0f 84 d4 00 00 00    	je     0x7f6d64ed7fc0
    7f6d64ed7eec:	48 83 c4 40          	add    $0x40,%rsp
      ;   {poll_return}
    7f6d64ed7ef0:	5d                   	pop    %rbp
    7f6d64ed7ef1:	49 3b a7 40 03 00 00 	cmp    0x340(%r15),%rsp
    7f6d64ed7ef8:	0f 87 42 01 00 00    	ja     0x7f6d64ed8040
    7f6d64ed7efe:	c3                   	ret
    7f6d64ed7eff:	45 8b 5d 00          	mov    0x0(%r13),%r11d
    7f6d64ed7f03:	45 85 db             	test   %r11d,%r11d
    7f6d64ed7f06:	0f 84 d2 fe ff ff    	je     0x7f6d64ed7dde
    7f6d64ed7f0c:	4d 8b 57 20          	mov    0x20(%r15),%r10
    7f6d64ed7f10:	49 8b fb             	mov    %r11,%rdi
    7f6d64ed7f13:	48 c1 e7 03          	shl    $0x3,%rdi
    7f6d64ed7f17:	4d 85 d2             	test   %r10,%r10
    7f6d64ed7f1a:	0f 84 c5 00 00 00    	je     0x7f6d64ed7fe5
    7f6d64ed7f20:	4d 8b 5f 30          	mov    0x30(%r15),%r11
    7f6d64ed7f24:	4b 89 7c 13 f8       	mov    %rdi,-0x8(%r11,%r10,1)
    7f6d64ed7f29:	49 83 c2 f8          	add    $0xfffffffffffffff8,%r10
    7f6d64ed7f2d:	4d 89 57 20          	mov    %r10,0x20(%r15)
    7f6d64ed7f31:	e9 a8 fe ff ff       	jmp    0x7f6d64ed7dde
    7f6d64ed7f36:	4d 8b 57 40          	mov    0x40(%r15),%r10
    7f6d64ed7f3a:	4d 8b 5f 50          	mov    0x50(%r15),%r11
    7f6d64ed7f3e:	f0 83 44 24 c0 00    	lock addl $0x0,-0x40(%rsp)
    7f6d64ed7f44:	80 3f 00             	cmpb   $0x0,(%rdi)
    7f6d64ed7f47:	0f 84 c7 fe ff ff    	je     0x7f6d64ed7e14
    7f6d64ed7f4d:	44 88 27             	mov    %r12b,(%rdi)
    7f6d64ed7f50:	4d 85 d2             	test   %r10,%r10
    7f6d64ed7f53:	75 15                	jne    0x7f6d64ed7f6a
    7f6d64ed7f55:	49 8b f7             	mov    %r15,%rsi
    7f6d64ed7f58:	49 ba 60 31 2d 7c 6d 	movabs $0x7f6d7c2d3160,%r10
    7f6d64ed7f5f:	7f 00 00 
    7f6d64ed7f62:	41 ff d2             	call   *%r10
    7f6d64ed7f65:	e9 aa fe ff ff       	jmp    0x7f6d64ed7e14
    7f6d64ed7f6a:	4b 89 7c 13 f8       	mov    %rdi,-0x8(%r11,%r10,1)
    7f6d64ed7f6f:	49 83 c2 f8          	add    $0xfffffffffffffff8,%r10
    7f6d64ed7f73:	4d 89 57 40          	mov    %r10,0x40(%r15)
    7f6d64ed7f77:	e9 98 fe ff ff       	jmp    0x7f6d64ed7e14
    7f6d64ed7f7c:	4c 89 4c 24 10       	mov    %r9,0x10(%rsp)
    7f6d64ed7f81:	48 89 0c 24          	mov    %rcx,(%rsp)
    7f6d64ed7f85:	49 8b f7             	mov    %r15,%rsi
    7f6d64ed7f88:	49 ba 30 31 2d 7c 6d 	movabs $0x7f6d7c2d3130,%r10
    7f6d64ed7f8f:	7f 00 00 
    7f6d64ed7f92:	41 ff d2             	call   *%r10
    7f6d64ed7f95:	48 8b 0c 24          	mov    (%rsp),%rcx
    7f6d64ed7f99:	4c 8b 4c 24 10       	mov    0x10(%rsp),%r9
    7f6d64ed7f9e:	e9 c2 fc ff ff       	jmp    0x7f6d64ed7c65
    7f6d64ed7fa3:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7f6d64ed7fa8:	4c 89 2c 24          	mov    %r13,(%rsp)
    7f6d64ed7fac:	48 89 7c 24 10       	mov    %rdi,0x10(%rsp)
    7f6d64ed7fb1:	66 90                	xchg   %ax,%ax
    7f6d64ed7fb3:	e8 c8 9a ab ff       	call   0x7f6d64991a80
    7f6d64ed7fb8:	0f 1f 84 00 00 00 00 	nopl   0x0(%rax,%rax,1)
    7f6d64ed7fbf:	00 
      ;   {static_call}
    7f6d64ed7fc0:	66 66 90             	data16 xchg %ax,%ax
    7f6d64ed7fc3:	e8 b8 20 ab ff       	call   0x7f6d6498a080
    7f6d64ed7fc8:	48 8b 74 24 08       	mov    0x8(%rsp),%rsi
    7f6d64ed7fcd:	48 ba f0 8d ca 9e 06 	movabs $0x69eca8df0,%rdx
      ;   {optimized virtual_call}
    7f6d64ed7fd4:	00 00 00 
    7f6d64ed7fd7:	e8 a4 16 ab ff       	call   0x7f6d64989680
    7f6d64ed7fdc:	85 c0                	test   %eax,%eax
    7f6d64ed7fde:	74 e0                	je     0x7f6d64ed7fc0
    7f6d64ed7fe0:	e9 07 ff ff ff       	jmp    0x7f6d64ed7eec
    7f6d64ed7fe5:	49 8b f7             	mov    %r15,%rsi
    7f6d64ed7fe8:	49 ba 30 31 2d 7c 6d 	movabs $0x7f6d7c2d3130,%r10
    7f6d64ed7fef:	7f 00 00 
    7f6d64ed7ff2:	41 ff d2             	call   *%r10
    7f6d64ed7ff5:	e9 e4 fd ff ff       	jmp    0x7f6d64ed7dde
    7f6d64ed7ffa:	be 76 ff ff ff       	mov    $0xffffff76,%esi
    7f6d64ed7fff:	4c 89 2c 24          	mov    %r13,(%rsp)
    7f6d64ed8003:	e8 78 9a ab ff       	call   0x7f6d64991a80
    7f6d64ed8008:	be 6e ff ff ff       	mov    $0xffffff6e,%esi
    7f6d64ed800d:	4c 89 2c 24          	mov    %r13,(%rsp)
    7f6d64ed8011:	66 90                	xchg   %ax,%ax
    7f6d64ed8013:	e8 68 9a ab ff       	call   0x7f6d64991a80
    7f6d64ed8018:	be f6 ff ff ff       	mov    $0xfffffff6,%esi
    7f6d64ed801d:	66 90                	xchg   %ax,%ax
    7f6d64ed801f:	e8 5c 9a ab ff       	call   0x7f6d64991a80
    7f6d64ed8024:	48 8b f0             	mov    %rax,%rsi
    7f6d64ed8027:	eb 0d                	jmp    0x7f6d64ed8036
    7f6d64ed8029:	48 8b f0             	mov    %rax,%rsi
    7f6d64ed802c:	eb 08                	jmp    0x7f6d64ed8036
    7f6d64ed802e:	48 8b f0             	mov    %rax,%rsi
    7f6d64ed8031:	eb 03                	jmp    0x7f6d64ed8036
    7f6d64ed8033:	48 8b f0             	mov    %rax,%rsi
    7f6d64ed8036:	48 83 c4 40          	add    $0x40,%rsp
    7f6d64ed803a:	5d                   	pop    %rbp
    7f6d64ed803b:	e9 40 b3 ac ff       	jmp    0x7f6d649a3380
      ;   {internal_word}
    7f6d64ed8040:	49 ba f1 7e ed 64 6d 	movabs $0x7f6d64ed7ef1,%r10
    7f6d64ed8047:	7f 00 00 
    7f6d64ed804a:	4d 89 97 58 03 00 00 	mov    %r10,0x358(%r15)
    7f6d64ed8051:	e9 aa 88 ab ff       	jmp    0x7f6d64990900
    7f6d64ed8056:	f4                   	hlt
    7f6d64ed8057:	f4                   	hlt
    7f6d64ed8058:	f4                   	hlt
    7f6d64ed8059:	f4                   	hlt
    7f6d64ed805a:	f4                   	hlt
    7f6d64ed805b:	f4                   	hlt
    7f6d64ed805c:	f4                   	hlt
    7f6d64ed805d:	f4                   	hlt
    7f6d64ed805e:	f4                   	hlt
    7f6d64ed805f:	f4                   	hlt

