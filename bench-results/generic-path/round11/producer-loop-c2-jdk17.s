
/tmp/tmpnbl112je:     file format binary


Disassembly of section .data:

00007fada4ee86e0 <.data>:
    7fada4ee86e0:	89 84 24 00 c0 fe ff 	mov    %eax,-0x14000(%rsp)
    7fada4ee86e7:	55                   	push   %rbp
    7fada4ee86e8:	48 83 ec 60          	sub    $0x60,%rsp
    7fada4ee86ec:	4c 8b d6             	mov    %rsi,%r10
    7fada4ee86ef:	48 83 fe 01          	cmp    $0x1,%rsi
    7fada4ee86f3:	0f 8c 8b 07 00 00    	jl     0x7fada4ee8e84
    7fada4ee86f9:	41 bb 01 00 00 00    	mov    $0x1,%r11d
    7fada4ee86ff:	4c 3b de             	cmp    %rsi,%r11
    7fada4ee8702:	bd ff ff ff ff       	mov    $0xffffffff,%ebp
    7fada4ee8707:	7c 08                	jl     0x7fada4ee8711
    7fada4ee8709:	40 0f 95 c5          	setne  %bpl
    7fada4ee870d:	40 0f b6 ed          	movzbl %bpl,%ebp
    7fada4ee8711:	44 8b 42 08          	mov    0x8(%rdx),%r8d
    7fada4ee8715:	41 81 f8 78 11 01 01 	cmp    $0x1011178,%r8d
    7fada4ee871c:	0f 85 75 07 00 00    	jne    0x7fada4ee8e97
    7fada4ee8722:	49 bb fe ff ff ff ff 	movabs $0x7ffffffffffffffe,%r11
    7fada4ee8729:	ff ff 7f 
    7fada4ee872c:	49 3b f3             	cmp    %r11,%rsi
    7fada4ee872f:	0f 8f 39 07 00 00    	jg     0x7fada4ee8e6e
    7fada4ee8735:	4c 8b da             	mov    %rdx,%r11
    7fada4ee8738:	48 8b d6             	mov    %rsi,%rdx
    7fada4ee873b:	48 83 c2 01          	add    $0x1,%rdx
    7fada4ee873f:	49 b9 18 8e ca 9e 06 	movabs $0x69eca8e18,%r9
    7fada4ee8746:	00 00 00 
    7fada4ee8749:	41 b8 01 00 00 00    	mov    $0x1,%r8d
    7fada4ee874f:	45 8b 69 10          	mov    0x10(%r9),%r13d
    7fada4ee8753:	45 85 ed             	test   %r13d,%r13d
    7fada4ee8756:	0f 84 65 07 00 00    	je     0x7fada4ee8ec1
    7fada4ee875c:	45 8b 4b 30          	mov    0x30(%r11),%r9d
    7fada4ee8760:	4b 8d 34 ec          	lea    (%r12,%r13,8),%rsi
    7fada4ee8764:	45 85 c9             	test   %r9d,%r9d
    7fada4ee8767:	0f 84 5e 07 00 00    	je     0x7fada4ee8ecb
    7fada4ee876d:	41 8b 4b 24          	mov    0x24(%r11),%ecx
    7fada4ee8771:	4b 8d 3c cc          	lea    (%r12,%r9,8),%rdi
    7fada4ee8775:	41 0f b6 8c cc 90 00 	movzbl 0x90(%r12,%rcx,8),%ecx
    7fada4ee877c:	00 00 
    7fada4ee877e:	85 c9                	test   %ecx,%ecx
    7fada4ee8780:	0f 85 52 07 00 00    	jne    0x7fada4ee8ed8
    7fada4ee8786:	41 8b 5b 14          	mov    0x14(%r11),%ebx
    7fada4ee878a:	85 db                	test   %ebx,%ebx
    7fada4ee878c:	0f 84 cb 06 00 00    	je     0x7fada4ee8e5d
    7fada4ee8792:	49 ff 84 dc 98 00 00 	incq   0x98(%r12,%rbx,8)
    7fada4ee8799:	00 
    7fada4ee879a:	43 8b 5c cc 20       	mov    0x20(%r12,%r9,8),%ebx
    7fada4ee879f:	49 8b ac dc 20 01 00 	mov    0x120(%r12,%rbx,8),%rbp
    7fada4ee87a6:	00 
    7fada4ee87a7:	48 89 7c 24 30       	mov    %rdi,0x30(%rsp)
    7fada4ee87ac:	48 89 74 24 28       	mov    %rsi,0x28(%rsp)
    7fada4ee87b1:	44 89 4c 24 20       	mov    %r9d,0x20(%rsp)
    7fada4ee87b6:	48 89 14 24          	mov    %rdx,(%rsp)
    7fada4ee87ba:	4c 89 5c 24 10       	mov    %r11,0x10(%rsp)
    7fada4ee87bf:	4c 89 44 24 18       	mov    %r8,0x18(%rsp)
    7fada4ee87c4:	4c 89 54 24 08       	mov    %r10,0x8(%rsp)
    7fada4ee87c9:	4d 8b 9c dc 90 00 00 	mov    0x90(%r12,%rbx,8),%r11
    7fada4ee87d0:	00 
    7fada4ee87d1:	45 8b 94 dc 8c 00 00 	mov    0x8c(%r12,%rbx,8),%r10d
    7fada4ee87d8:	00 
    7fada4ee87d9:	4d 8b c3             	mov    %r11,%r8
    7fada4ee87dc:	4c 23 c5             	and    %rbp,%r8
    7fada4ee87df:	49 3b ac dc 28 01 00 	cmp    0x128(%r12,%rbx,8),%rbp
    7fada4ee87e6:	00 
    7fada4ee87e7:	7c 51                	jl     0x7fada4ee883a
    7fada4ee87e9:	4d 63 8c dc 98 00 00 	movslq 0x98(%r12,%rbx,8),%r9
    7fada4ee87f0:	00 
    7fada4ee87f1:	4c 03 cd             	add    %rbp,%r9
    7fada4ee87f4:	49 8b c9             	mov    %r9,%rcx
    7fada4ee87f7:	49 23 cb             	and    %r11,%rcx
    7fada4ee87fa:	4f 8d 1c d4          	lea    (%r12,%r10,8),%r11
    7fada4ee87fe:	45 3b 64 8b 10       	cmp    0x10(%r11,%rcx,4),%r12d
    7fada4ee8803:	0f 84 40 05 00 00    	je     0x7fada4ee8d49
    7fada4ee8809:	47 3b 64 83 10       	cmp    0x10(%r11,%r8,4),%r12d
    7fada4ee880e:	74 2a                	je     0x7fada4ee883a
    7fada4ee8810:	4c 8b 54 24 10       	mov    0x10(%rsp),%r10
    7fada4ee8815:	45 8b 5a 14          	mov    0x14(%r10),%r11d
    7fada4ee8819:	45 85 db             	test   %r11d,%r11d
    7fada4ee881c:	0f 84 14 07 00 00    	je     0x7fada4ee8f36
    7fada4ee8822:	4b 8d 34 dc          	lea    (%r12,%r11,8),%rsi
    7fada4ee8826:	48 8b d7             	mov    %rdi,%rdx
    7fada4ee8829:	48 8b 4c 24 28       	mov    0x28(%rsp),%rcx
    7fada4ee882e:	48 8b 6c 24 08       	mov    0x8(%rsp),%rbp
    7fada4ee8833:	e8 48 0e aa ff       	call   0x7fada4989680
    7fada4ee8838:	eb 51                	jmp    0x7fada4ee888b
    7fada4ee883a:	49 c1 e2 03          	shl    $0x3,%r10
    7fada4ee883e:	4f 8d 74 82 10       	lea    0x10(%r10,%r8,4),%r14
    7fada4ee8843:	41 80 7f 38 00       	cmpb   $0x0,0x38(%r15)
    7fada4ee8848:	0f 85 08 05 00 00    	jne    0x7fada4ee8d56
    7fada4ee884e:	45 89 2e             	mov    %r13d,(%r14)
    7fada4ee8851:	48 83 c5 01          	add    $0x1,%rbp
    7fada4ee8855:	4c 8b 54 24 28       	mov    0x28(%rsp),%r10
    7fada4ee885a:	4d 8b de             	mov    %r14,%r11
    7fada4ee885d:	4d 33 d3             	xor    %r11,%r10
    7fada4ee8860:	49 c1 ea 16          	shr    $0x16,%r10
    7fada4ee8864:	4d 85 d2             	test   %r10,%r10
    7fada4ee8867:	74 1a                	je     0x7fada4ee8883
    7fada4ee8869:	49 c1 eb 09          	shr    $0x9,%r11
    7fada4ee886d:	48 bf 00 20 66 b5 ad 	movabs $0x7fadb5662000,%rdi
    7fada4ee8874:	7f 00 00 
    7fada4ee8877:	49 03 fb             	add    %r11,%rdi
    7fada4ee887a:	80 3f 04             	cmpb   $0x4,(%rdi)
    7fada4ee887d:	0f 85 09 05 00 00    	jne    0x7fada4ee8d8c
    7fada4ee8883:	49 89 ac dc 20 01 00 	mov    %rbp,0x120(%r12,%rbx,8)
    7fada4ee888a:	00 
    7fada4ee888b:	44 8b 54 24 20       	mov    0x20(%rsp),%r10d
    7fada4ee8890:	47 0f b6 5c d4 15    	movzbl 0x15(%r12,%r10,8),%r11d
    7fada4ee8896:	45 85 db             	test   %r11d,%r11d
    7fada4ee8899:	0f 84 4a 06 00 00    	je     0x7fada4ee8ee9
    7fada4ee889f:	47 0f b6 5c d4 13    	movzbl 0x13(%r12,%r10,8),%r11d
    7fada4ee88a5:	45 85 db             	test   %r11d,%r11d
    7fada4ee88a8:	0f 85 52 06 00 00    	jne    0x7fada4ee8f00
    7fada4ee88ae:	43 8b 6c d4 28       	mov    0x28(%r12,%r10,8),%ebp
    7fada4ee88b3:	45 8b 94 ec 90 00 00 	mov    0x90(%r12,%rbp,8),%r10d
    7fada4ee88ba:	00 
    7fada4ee88bb:	45 85 d2             	test   %r10d,%r10d
    7fada4ee88be:	0f 85 3c 05 00 00    	jne    0x7fada4ee8e00
    7fada4ee88c4:	4d 8b 97 48 03 00 00 	mov    0x348(%r15),%r10
    7fada4ee88cb:	4c 8b 5c 24 08       	mov    0x8(%rsp),%r11
    7fada4ee88d0:	4c 2b 5c 24 18       	sub    0x18(%rsp),%r11
    7fada4ee88d5:	4c 8b 44 24 18       	mov    0x18(%rsp),%r8
    7fada4ee88da:	49 83 c0 01          	add    $0x1,%r8
    7fada4ee88de:	41 85 02             	test   %eax,(%r10)
    7fada4ee88e1:	49 83 c3 01          	add    $0x1,%r11
    7fada4ee88e5:	48 8b 14 24          	mov    (%rsp),%rdx
    7fada4ee88e9:	45 33 d2             	xor    %r10d,%r10d
    7fada4ee88ec:	48 3b 54 24 18       	cmp    0x18(%rsp),%rdx
    7fada4ee88f1:	4d 0f 4c da          	cmovl  %r10,%r11
    7fada4ee88f5:	49 81 fb fd ff ff 7f 	cmp    $0x7ffffffd,%r11
    7fada4ee88fc:	41 ba fd ff ff 7f    	mov    $0x7ffffffd,%r10d
    7fada4ee8902:	4d 0f 47 da          	cmova  %r10,%r11
    7fada4ee8906:	41 8b eb             	mov    %r11d,%ebp
    7fada4ee8909:	83 fd 01             	cmp    $0x1,%ebp
    7fada4ee890c:	0f 8e e4 02 00 00    	jle    0x7fada4ee8bf6
    7fada4ee8912:	41 ba 01 00 00 00    	mov    $0x1,%r10d
    7fada4ee8918:	e9 b7 00 00 00       	jmp    0x7fada4ee89d4
    7fada4ee891d:	4d 89 8c dc 28 01 00 	mov    %r9,0x128(%r12,%rbx,8)
    7fada4ee8924:	00 
    7fada4ee8925:	66 66 66 0f 1f 84 00 	data16 data16 nopw 0x0(%rax,%rax,1)
    7fada4ee892c:	00 00 00 00 
    7fada4ee8930:	49 c1 e2 03          	shl    $0x3,%r10
    7fada4ee8934:	4f 8d 74 82 10       	lea    0x10(%r10,%r8,4),%r14
    7fada4ee8939:	41 80 7f 38 00       	cmpb   $0x0,0x38(%r15)
    7fada4ee893e:	0f 85 b9 01 00 00    	jne    0x7fada4ee8afd
    7fada4ee8944:	45 89 2e             	mov    %r13d,(%r14)
    7fada4ee8947:	48 83 c5 01          	add    $0x1,%rbp
    7fada4ee894b:	4d 8b d6             	mov    %r14,%r10
    7fada4ee894e:	4c 8b 5c 24 38       	mov    0x38(%rsp),%r11
    7fada4ee8953:	4d 33 da             	xor    %r10,%r11
    7fada4ee8956:	49 c1 eb 16          	shr    $0x16,%r11
    7fada4ee895a:	4d 85 db             	test   %r11,%r11
    7fada4ee895d:	74 1a                	je     0x7fada4ee8979
    7fada4ee895f:	49 c1 ea 09          	shr    $0x9,%r10
    7fada4ee8963:	48 bf 00 20 66 b5 ad 	movabs $0x7fadb5662000,%rdi
    7fada4ee896a:	7f 00 00 
    7fada4ee896d:	49 03 fa             	add    %r10,%rdi
    7fada4ee8970:	80 3f 04             	cmpb   $0x4,(%rdi)
    7fada4ee8973:	0f 85 ba 01 00 00    	jne    0x7fada4ee8b33
    7fada4ee8979:	49 89 ac dc 20 01 00 	mov    %rbp,0x120(%r12,%rbx,8)
    7fada4ee8980:	00 
    7fada4ee8981:	44 8b 54 24 20       	mov    0x20(%rsp),%r10d
    7fada4ee8986:	47 0f b6 5c d4 15    	movzbl 0x15(%r12,%r10,8),%r11d
    7fada4ee898c:	45 85 db             	test   %r11d,%r11d
    7fada4ee898f:	0f 84 2f 03 00 00    	je     0x7fada4ee8cc4
    7fada4ee8995:	47 0f b6 5c d4 13    	movzbl 0x13(%r12,%r10,8),%r11d
    7fada4ee899b:	45 85 db             	test   %r11d,%r11d
    7fada4ee899e:	0f 85 4c 03 00 00    	jne    0x7fada4ee8cf0
    7fada4ee89a4:	43 8b 5c d4 28       	mov    0x28(%r12,%r10,8),%ebx
    7fada4ee89a9:	41 8b 84 dc 90 00 00 	mov    0x90(%r12,%rbx,8),%eax
    7fada4ee89b0:	00 
    7fada4ee89b1:	85 c0                	test   %eax,%eax
    7fada4ee89b3:	0f 85 c0 01 00 00    	jne    0x7fada4ee8b79
    7fada4ee89b9:	44 8b 54 24 28       	mov    0x28(%rsp),%r10d
    7fada4ee89be:	41 ff c2             	inc    %r10d
    7fada4ee89c1:	44 3b 54 24 24       	cmp    0x24(%rsp),%r10d
    7fada4ee89c6:	0f 8d 18 02 00 00    	jge    0x7fada4ee8be4
    7fada4ee89cc:	48 8b 14 24          	mov    (%rsp),%rdx
    7fada4ee89d0:	8b 6c 24 24          	mov    0x24(%rsp),%ebp
    7fada4ee89d4:	4d 63 ca             	movslq %r10d,%r9
    7fada4ee89d7:	4d 8b d9             	mov    %r9,%r11
    7fada4ee89da:	4c 03 5c 24 18       	add    0x18(%rsp),%r11
    7fada4ee89df:	4c 89 5c 24 48       	mov    %r11,0x48(%rsp)
    7fada4ee89e4:	49 ff cb             	dec    %r11
    7fada4ee89e7:	4d 0f b7 db          	movzwq %r11w,%r11
    7fada4ee89eb:	49 b8 18 8e ca 9e 06 	movabs $0x69eca8e18,%r8
    7fada4ee89f2:	00 00 00 
    7fada4ee89f5:	47 8b 6c 98 10       	mov    0x10(%r8,%r11,4),%r13d
    7fada4ee89fa:	45 85 ed             	test   %r13d,%r13d
    7fada4ee89fd:	0f 84 42 02 00 00    	je     0x7fada4ee8c45
    7fada4ee8a03:	4c 89 4c 24 30       	mov    %r9,0x30(%rsp)
    7fada4ee8a08:	44 89 54 24 28       	mov    %r10d,0x28(%rsp)
    7fada4ee8a0d:	89 6c 24 24          	mov    %ebp,0x24(%rsp)
    7fada4ee8a11:	48 89 14 24          	mov    %rdx,(%rsp)
    7fada4ee8a15:	4c 8b 54 24 10       	mov    0x10(%rsp),%r10
    7fada4ee8a1a:	41 8b 6a 30          	mov    0x30(%r10),%ebp
    7fada4ee8a1e:	89 6c 24 20          	mov    %ebp,0x20(%rsp)
    7fada4ee8a22:	4f 8d 14 ec          	lea    (%r12,%r13,8),%r10
    7fada4ee8a26:	4c 89 54 24 38       	mov    %r10,0x38(%rsp)
    7fada4ee8a2b:	85 ed                	test   %ebp,%ebp
    7fada4ee8a2d:	0f 84 35 02 00 00    	je     0x7fada4ee8c68
    7fada4ee8a33:	4c 8b 54 24 10       	mov    0x10(%rsp),%r10
    7fada4ee8a38:	45 8b 52 24          	mov    0x24(%r10),%r10d
    7fada4ee8a3c:	4d 8d 1c ec          	lea    (%r12,%rbp,8),%r11
    7fada4ee8a40:	4c 89 5c 24 40       	mov    %r11,0x40(%rsp)
    7fada4ee8a45:	43 0f b6 8c d4 90 00 	movzbl 0x90(%r12,%r10,8),%ecx
    7fada4ee8a4c:	00 00 
    7fada4ee8a4e:	85 c9                	test   %ecx,%ecx
    7fada4ee8a50:	0f 85 3e 02 00 00    	jne    0x7fada4ee8c94
    7fada4ee8a56:	4c 8b 54 24 10       	mov    0x10(%rsp),%r10
    7fada4ee8a5b:	45 8b 5a 14          	mov    0x14(%r10),%r11d
    7fada4ee8a5f:	45 85 db             	test   %r11d,%r11d
    7fada4ee8a62:	0f 84 4d 01 00 00    	je     0x7fada4ee8bb5
    7fada4ee8a68:	4b ff 84 dc 98 00 00 	incq   0x98(%r12,%r11,8)
    7fada4ee8a6f:	00 
    7fada4ee8a70:	41 8b 5c ec 20       	mov    0x20(%r12,%rbp,8),%ebx
    7fada4ee8a75:	49 8b ac dc 20 01 00 	mov    0x120(%r12,%rbx,8),%rbp
    7fada4ee8a7c:	00 
    7fada4ee8a7d:	4d 8b 9c dc 90 00 00 	mov    0x90(%r12,%rbx,8),%r11
    7fada4ee8a84:	00 
    7fada4ee8a85:	45 8b 94 dc 8c 00 00 	mov    0x8c(%r12,%rbx,8),%r10d
    7fada4ee8a8c:	00 
    7fada4ee8a8d:	4d 8b c3             	mov    %r11,%r8
    7fada4ee8a90:	4c 23 c5             	and    %rbp,%r8
    7fada4ee8a93:	49 3b ac dc 28 01 00 	cmp    0x128(%r12,%rbx,8),%rbp
    7fada4ee8a9a:	00 
    7fada4ee8a9b:	0f 8c 8f fe ff ff    	jl     0x7fada4ee8930
    7fada4ee8aa1:	4d 63 8c dc 98 00 00 	movslq 0x98(%r12,%rbx,8),%r9
    7fada4ee8aa8:	00 
    7fada4ee8aa9:	4c 03 cd             	add    %rbp,%r9
    7fada4ee8aac:	49 8b c9             	mov    %r9,%rcx
    7fada4ee8aaf:	49 23 cb             	and    %r11,%rcx
    7fada4ee8ab2:	4f 8d 1c d4          	lea    (%r12,%r10,8),%r11
    7fada4ee8ab6:	45 3b 64 8b 10       	cmp    0x10(%r11,%rcx,4),%r12d
    7fada4ee8abb:	0f 84 5c fe ff ff    	je     0x7fada4ee891d
    7fada4ee8ac1:	47 3b 64 83 10       	cmp    0x10(%r11,%r8,4),%r12d
    7fada4ee8ac6:	0f 84 64 fe ff ff    	je     0x7fada4ee8930
    7fada4ee8acc:	4c 8b 54 24 10       	mov    0x10(%rsp),%r10
    7fada4ee8ad1:	45 8b 52 14          	mov    0x14(%r10),%r10d
    7fada4ee8ad5:	45 85 d2             	test   %r10d,%r10d
    7fada4ee8ad8:	0f 84 f4 02 00 00    	je     0x7fada4ee8dd2
    7fada4ee8ade:	4b 8d 34 d4          	lea    (%r12,%r10,8),%rsi
    7fada4ee8ae2:	48 8b 54 24 40       	mov    0x40(%rsp),%rdx
    7fada4ee8ae7:	48 8b 4c 24 38       	mov    0x38(%rsp),%rcx
    7fada4ee8aec:	48 8b 6c 24 48       	mov    0x48(%rsp),%rbp
    7fada4ee8af1:	66 90                	xchg   %ax,%ax
    7fada4ee8af3:	e8 28 60 56 f8       	call   0x7fad9d44eb20
    7fada4ee8af8:	e9 84 fe ff ff       	jmp    0x7fada4ee8981
    7fada4ee8afd:	45 8b 1e             	mov    (%r14),%r11d
    7fada4ee8b00:	45 85 db             	test   %r11d,%r11d
    7fada4ee8b03:	0f 84 3b fe ff ff    	je     0x7fada4ee8944
    7fada4ee8b09:	4d 8b 57 20          	mov    0x20(%r15),%r10
    7fada4ee8b0d:	49 8b fb             	mov    %r11,%rdi
    7fada4ee8b10:	48 c1 e7 03          	shl    $0x3,%rdi
    7fada4ee8b14:	4d 85 d2             	test   %r10,%r10
    7fada4ee8b17:	0f 84 13 01 00 00    	je     0x7fada4ee8c30
    7fada4ee8b1d:	4d 8b 5f 30          	mov    0x30(%r15),%r11
    7fada4ee8b21:	4b 89 7c 13 f8       	mov    %rdi,-0x8(%r11,%r10,1)
    7fada4ee8b26:	49 83 c2 f8          	add    $0xfffffffffffffff8,%r10
    7fada4ee8b2a:	4d 89 57 20          	mov    %r10,0x20(%r15)
    7fada4ee8b2e:	e9 11 fe ff ff       	jmp    0x7fada4ee8944
    7fada4ee8b33:	4d 8b 57 50          	mov    0x50(%r15),%r10
    7fada4ee8b37:	4d 8b 5f 40          	mov    0x40(%r15),%r11
    7fada4ee8b3b:	f0 83 44 24 c0 00    	lock addl $0x0,-0x40(%rsp)
    7fada4ee8b41:	80 3f 00             	cmpb   $0x0,(%rdi)
    7fada4ee8b44:	0f 84 2f fe ff ff    	je     0x7fada4ee8979
    7fada4ee8b4a:	44 88 27             	mov    %r12b,(%rdi)
    7fada4ee8b4d:	4d 85 db             	test   %r11,%r11
    7fada4ee8b50:	75 15                	jne    0x7fada4ee8b67
    7fada4ee8b52:	49 8b f7             	mov    %r15,%rsi
    7fada4ee8b55:	49 ba 60 31 0d bb ad 	movabs $0x7fadbb0d3160,%r10
    7fada4ee8b5c:	7f 00 00 
    7fada4ee8b5f:	41 ff d2             	call   *%r10
    7fada4ee8b62:	e9 12 fe ff ff       	jmp    0x7fada4ee8979
    7fada4ee8b67:	4b 89 7c 1a f8       	mov    %rdi,-0x8(%r10,%r11,1)
    7fada4ee8b6c:	49 83 c3 f8          	add    $0xfffffffffffffff8,%r11
    7fada4ee8b70:	4d 89 5f 40          	mov    %r11,0x40(%r15)
    7fada4ee8b74:	e9 00 fe ff ff       	jmp    0x7fada4ee8979
    7fada4ee8b79:	49 8d 34 c4          	lea    (%r12,%rax,8),%rsi
    7fada4ee8b7d:	41 80 7f 38 00       	cmpb   $0x0,0x38(%r15)
    7fada4ee8b82:	0f 85 94 01 00 00    	jne    0x7fada4ee8d1c
    7fada4ee8b88:	4d 33 db             	xor    %r11,%r11
    7fada4ee8b8b:	f0 45 0f b1 9c dc 90 	lock cmpxchg %r11d,0x90(%r12,%rbx,8)
    7fada4ee8b92:	00 00 00 
    7fada4ee8b95:	41 0f 94 c3          	sete   %r11b
    7fada4ee8b99:	45 0f b6 db          	movzbl %r11b,%r11d
    7fada4ee8b9d:	45 85 db             	test   %r11d,%r11d
    7fada4ee8ba0:	0f 84 13 fe ff ff    	je     0x7fada4ee89b9
    7fada4ee8ba6:	48 8b 6c 24 48       	mov    0x48(%rsp),%rbp
    7fada4ee8bab:	e8 d0 14 aa ff       	call   0x7fada498a080
    7fada4ee8bb0:	e9 04 fe ff ff       	jmp    0x7fada4ee89b9
    7fada4ee8bb5:	4c 8b 54 24 38       	mov    0x38(%rsp),%r10
    7fada4ee8bba:	4c 89 14 24          	mov    %r10,(%rsp)
    7fada4ee8bbe:	4c 8b 54 24 40       	mov    0x40(%rsp),%r10
    7fada4ee8bc3:	49 8b ea             	mov    %r10,%rbp
    7fada4ee8bc6:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7fada4ee8bcb:	4c 8b 5c 24 10       	mov    0x10(%rsp),%r11
    7fada4ee8bd0:	be f6 ff ff ff       	mov    $0xfffffff6,%esi
    7fada4ee8bd5:	4c 89 54 24 08       	mov    %r10,0x8(%rsp)
    7fada4ee8bda:	4c 89 5c 24 20       	mov    %r11,0x20(%rsp)
    7fada4ee8bdf:	e8 9c 8e aa ff       	call   0x7fada4991a80
    7fada4ee8be4:	4c 8b 44 24 18       	mov    0x18(%rsp),%r8
    7fada4ee8be9:	4c 03 44 24 30       	add    0x30(%rsp),%r8
    7fada4ee8bee:	49 83 c0 01          	add    $0x1,%r8
    7fada4ee8bf2:	48 8b 14 24          	mov    (%rsp),%rdx
    7fada4ee8bf6:	4c 3b c2             	cmp    %rdx,%r8
    7fada4ee8bf9:	0f 8d 85 02 00 00    	jge    0x7fada4ee8e84
    7fada4ee8bff:	4d 8b d0             	mov    %r8,%r10
    7fada4ee8c02:	49 ff ca             	dec    %r10
    7fada4ee8c05:	4d 0f b7 d2          	movzwq %r10w,%r10
    7fada4ee8c09:	49 bb 18 8e ca 9e 06 	movabs $0x69eca8e18,%r11
      ;   {oop(a 'java/lang/Long'[65536] {0x000000069eca8e18})}
    7fada4ee8c10:	00 00 00 
    7fada4ee8c13:	49 b9 18 8e ca 9e 06 	movabs $0x69eca8e18,%r9
    7fada4ee8c1a:	00 00 00 
    7fada4ee8c1d:	4f 8d 0c 91          	lea    (%r9,%r10,4),%r9
    7fada4ee8c21:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7fada4ee8c26:	4c 8b 5c 24 10       	mov    0x10(%rsp),%r11
    7fada4ee8c2b:	e9 1f fb ff ff       	jmp    0x7fada4ee874f
    7fada4ee8c30:	49 8b f7             	mov    %r15,%rsi
    7fada4ee8c33:	49 ba 30 31 0d bb ad 	movabs $0x7fadbb0d3130,%r10
    7fada4ee8c3a:	7f 00 00 
    7fada4ee8c3d:	41 ff d2             	call   *%r10
    7fada4ee8c40:	e9 ff fc ff ff       	jmp    0x7fada4ee8944
    7fada4ee8c45:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7fada4ee8c4a:	4c 8b 5c 24 10       	mov    0x10(%rsp),%r11
    7fada4ee8c4f:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7fada4ee8c54:	49 8b ea             	mov    %r10,%rbp
    7fada4ee8c57:	4c 89 5c 24 10       	mov    %r11,0x10(%rsp)
    7fada4ee8c5c:	44 89 6c 24 1c       	mov    %r13d,0x1c(%rsp)
    7fada4ee8c61:	66 90                	xchg   %ax,%ax
    7fada4ee8c63:	e8 18 8e aa ff       	call   0x7fada4991a80
    7fada4ee8c68:	49 8b ea             	mov    %r10,%rbp
    7fada4ee8c6b:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7fada4ee8c70:	4c 8b 5c 24 10       	mov    0x10(%rsp),%r11
    7fada4ee8c75:	44 8b 4c 24 20       	mov    0x20(%rsp),%r9d
    7fada4ee8c7a:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7fada4ee8c7f:	4c 89 14 24          	mov    %r10,(%rsp)
    7fada4ee8c83:	4c 89 5c 24 18       	mov    %r11,0x18(%rsp)
    7fada4ee8c88:	44 89 4c 24 24       	mov    %r9d,0x24(%rsp)
    7fada4ee8c8d:	66 90                	xchg   %ax,%ax
    7fada4ee8c8f:	e8 ec 8d aa ff       	call   0x7fada4991a80
    7fada4ee8c94:	4c 8b 54 24 38       	mov    0x38(%rsp),%r10
    7fada4ee8c99:	4c 89 14 24          	mov    %r10,(%rsp)
    7fada4ee8c9d:	49 8b eb             	mov    %r11,%rbp
    7fada4ee8ca0:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7fada4ee8ca5:	4c 8b 5c 24 10       	mov    0x10(%rsp),%r11
    7fada4ee8caa:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7fada4ee8caf:	4c 89 54 24 08       	mov    %r10,0x8(%rsp)
    7fada4ee8cb4:	4c 89 5c 24 20       	mov    %r11,0x20(%rsp)
    7fada4ee8cb9:	89 4c 24 28          	mov    %ecx,0x28(%rsp)
    7fada4ee8cbd:	66 90                	xchg   %ax,%ax
    7fada4ee8cbf:	e8 bc 8d aa ff       	call   0x7fada4991a80
    7fada4ee8cc4:	4c 8b 54 24 40       	mov    0x40(%rsp),%r10
    7fada4ee8cc9:	49 8b ea             	mov    %r10,%rbp
    7fada4ee8ccc:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7fada4ee8cd1:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7fada4ee8cd6:	4c 89 14 24          	mov    %r10,(%rsp)
    7fada4ee8cda:	4c 8b 54 24 10       	mov    0x10(%rsp),%r10
    7fada4ee8cdf:	4c 89 54 24 08       	mov    %r10,0x8(%rsp)
    7fada4ee8ce4:	44 89 5c 24 18       	mov    %r11d,0x18(%rsp)
    7fada4ee8ce9:	66 90                	xchg   %ax,%ax
    7fada4ee8ceb:	e8 90 8d aa ff       	call   0x7fada4991a80
    7fada4ee8cf0:	4c 8b 54 24 40       	mov    0x40(%rsp),%r10
    7fada4ee8cf5:	49 8b ea             	mov    %r10,%rbp
    7fada4ee8cf8:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7fada4ee8cfd:	4c 8b 54 24 08       	mov    0x8(%rsp),%r10
    7fada4ee8d02:	4c 89 14 24          	mov    %r10,(%rsp)
    7fada4ee8d06:	4c 8b 54 24 10       	mov    0x10(%rsp),%r10
    7fada4ee8d0b:	4c 89 54 24 08       	mov    %r10,0x8(%rsp)
    7fada4ee8d10:	44 89 5c 24 18       	mov    %r11d,0x18(%rsp)
    7fada4ee8d15:	66 90                	xchg   %ax,%ax
    7fada4ee8d17:	e8 64 8d aa ff       	call   0x7fada4991a80
    7fada4ee8d1c:	4c 8b ee             	mov    %rsi,%r13
    7fada4ee8d1f:	8b e8                	mov    %eax,%ebp
    7fada4ee8d21:	4d 8b 57 20          	mov    0x20(%r15),%r10
    7fada4ee8d25:	4d 85 d2             	test   %r10,%r10
    7fada4ee8d28:	0f 84 17 01 00 00    	je     0x7fada4ee8e45
    7fada4ee8d2e:	4d 8b 5f 30          	mov    0x30(%r15),%r11
    7fada4ee8d32:	4b 89 74 13 f8       	mov    %rsi,-0x8(%r11,%r10,1)
    7fada4ee8d37:	49 83 c2 f8          	add    $0xfffffffffffffff8,%r10
    7fada4ee8d3b:	4d 89 57 20          	mov    %r10,0x20(%r15)
    7fada4ee8d3f:	8b c5                	mov    %ebp,%eax
    7fada4ee8d41:	49 8b f5             	mov    %r13,%rsi
    7fada4ee8d44:	e9 3f fe ff ff       	jmp    0x7fada4ee8b88
    7fada4ee8d49:	4d 89 8c dc 28 01 00 	mov    %r9,0x128(%r12,%rbx,8)
    7fada4ee8d50:	00 
    7fada4ee8d51:	e9 e4 fa ff ff       	jmp    0x7fada4ee883a
    7fada4ee8d56:	45 8b 1e             	mov    (%r14),%r11d
    7fada4ee8d59:	45 85 db             	test   %r11d,%r11d
    7fada4ee8d5c:	0f 84 ec fa ff ff    	je     0x7fada4ee884e
    7fada4ee8d62:	4d 8b 57 20          	mov    0x20(%r15),%r10
    7fada4ee8d66:	49 8b fb             	mov    %r11,%rdi
    7fada4ee8d69:	48 c1 e7 03          	shl    $0x3,%rdi
    7fada4ee8d6d:	4d 85 d2             	test   %r10,%r10
    7fada4ee8d70:	0f 84 36 01 00 00    	je     0x7fada4ee8eac
    7fada4ee8d76:	4d 8b 5f 30          	mov    0x30(%r15),%r11
    7fada4ee8d7a:	4b 89 7c 13 f8       	mov    %rdi,-0x8(%r11,%r10,1)
    7fada4ee8d7f:	49 83 c2 f8          	add    $0xfffffffffffffff8,%r10
    7fada4ee8d83:	4d 89 57 20          	mov    %r10,0x20(%r15)
    7fada4ee8d87:	e9 c2 fa ff ff       	jmp    0x7fada4ee884e
    7fada4ee8d8c:	4d 8b 57 40          	mov    0x40(%r15),%r10
    7fada4ee8d90:	4d 8b 5f 50          	mov    0x50(%r15),%r11
    7fada4ee8d94:	f0 83 44 24 c0 00    	lock addl $0x0,-0x40(%rsp)
    7fada4ee8d9a:	80 3f 00             	cmpb   $0x0,(%rdi)
    7fada4ee8d9d:	0f 84 e0 fa ff ff    	je     0x7fada4ee8883
    7fada4ee8da3:	44 88 27             	mov    %r12b,(%rdi)
    7fada4ee8da6:	4d 85 d2             	test   %r10,%r10
    7fada4ee8da9:	75 15                	jne    0x7fada4ee8dc0
    7fada4ee8dab:	49 8b f7             	mov    %r15,%rsi
    7fada4ee8dae:	49 ba 60 31 0d bb ad 	movabs $0x7fadbb0d3160,%r10
    7fada4ee8db5:	7f 00 00 
    7fada4ee8db8:	41 ff d2             	call   *%r10
    7fada4ee8dbb:	e9 c3 fa ff ff       	jmp    0x7fada4ee8883
    7fada4ee8dc0:	4b 89 7c 13 f8       	mov    %rdi,-0x8(%r11,%r10,1)
    7fada4ee8dc5:	49 83 c2 f8          	add    $0xfffffffffffffff8,%r10
    7fada4ee8dc9:	4d 89 57 40          	mov    %r10,0x40(%r15)
    7fada4ee8dcd:	e9 b1 fa ff ff       	jmp    0x7fada4ee8883
    7fada4ee8dd2:	4c 8b 54 24 38       	mov    0x38(%rsp),%r10
    7fada4ee8dd7:	4c 89 14 24          	mov    %r10,(%rsp)
    7fada4ee8ddb:	48 8b 6c 24 40       	mov    0x40(%rsp),%rbp
    7fada4ee8de0:	48 ff 74 24 48       	rex.W push 0x48(%rsp)
    7fada4ee8de5:	48 8f 44 24 18       	rex.W pop 0x18(%rsp)
    7fada4ee8dea:	4c 8b 54 24 10       	mov    0x10(%rsp),%r10
    7fada4ee8def:	be f6 ff ff ff       	mov    $0xfffffff6,%esi
    7fada4ee8df4:	4c 89 54 24 20       	mov    %r10,0x20(%rsp)
    7fada4ee8df9:	66 90                	xchg   %ax,%ax
    7fada4ee8dfb:	e8 80 8c aa ff       	call   0x7fada4991a80
    7fada4ee8e00:	4f 8d 0c d4          	lea    (%r12,%r10,8),%r9
    7fada4ee8e04:	41 80 7f 38 00       	cmpb   $0x0,0x38(%r15)
    7fada4ee8e09:	0f 85 08 01 00 00    	jne    0x7fada4ee8f17
    7fada4ee8e0f:	41 8b c2             	mov    %r10d,%eax
    7fada4ee8e12:	4d 33 d2             	xor    %r10,%r10
    7fada4ee8e15:	f0 45 0f b1 94 ec 90 	lock cmpxchg %r10d,0x90(%r12,%rbp,8)
    7fada4ee8e1c:	00 00 00 
    7fada4ee8e1f:	41 0f 94 c3          	sete   %r11b
    7fada4ee8e23:	45 0f b6 db          	movzbl %r11b,%r11d
    7fada4ee8e27:	45 85 db             	test   %r11d,%r11d
    7fada4ee8e2a:	0f 84 94 fa ff ff    	je     0x7fada4ee88c4
    7fada4ee8e30:	49 8b f1             	mov    %r9,%rsi
    7fada4ee8e33:	48 8b 6c 24 08       	mov    0x8(%rsp),%rbp
      ;   {static_call}
    7fada4ee8e38:	66 66 90             	data16 xchg %ax,%ax
    7fada4ee8e3b:	e8 40 12 aa ff       	call   0x7fada498a080
    7fada4ee8e40:	e9 7f fa ff ff       	jmp    0x7fada4ee88c4
    7fada4ee8e45:	48 8b fe             	mov    %rsi,%rdi
    7fada4ee8e48:	49 8b f7             	mov    %r15,%rsi
    7fada4ee8e4b:	49 ba 30 31 0d bb ad 	movabs $0x7fadbb0d3130,%r10
    7fada4ee8e52:	7f 00 00 
    7fada4ee8e55:	41 ff d2             	call   *%r10
    7fada4ee8e58:	e9 e2 fe ff ff       	jmp    0x7fada4ee8d3f
    7fada4ee8e5d:	48 89 34 24          	mov    %rsi,(%rsp)
    7fada4ee8e61:	48 8b ef             	mov    %rdi,%rbp
    7fada4ee8e64:	4c 89 44 24 48       	mov    %r8,0x48(%rsp)
    7fada4ee8e69:	e9 62 fd ff ff       	jmp    0x7fada4ee8bd0
    7fada4ee8e6e:	be 6e ff ff ff       	mov    $0xffffff6e,%esi
    7fada4ee8e73:	4c 89 14 24          	mov    %r10,(%rsp)
    7fada4ee8e77:	48 89 54 24 08       	mov    %rdx,0x8(%rsp)
      ;   {runtime_call UncommonTrapBlob}
    7fada4ee8e7c:	66 66 90             	data16 xchg %ax,%ax
    7fada4ee8e7f:	e8 fc 8b aa ff       	call   0x7fada4991a80
    7fada4ee8e84:	48 83 c4 60          	add    $0x60,%rsp
      ;   {poll_return}
    7fada4ee8e88:	5d                   	pop    %rbp
    7fada4ee8e89:	49 3b a7 40 03 00 00 	cmp    0x340(%r15),%rsp
    7fada4ee8e90:	0f 87 cc 01 00 00    	ja     0x7fada4ee9062
    7fada4ee8e96:	c3                   	ret
    7fada4ee8e97:	be 76 ff ff ff       	mov    $0xffffff76,%esi
    7fada4ee8e9c:	4c 89 14 24          	mov    %r10,(%rsp)
    7fada4ee8ea0:	48 89 54 24 08       	mov    %rdx,0x8(%rsp)
    7fada4ee8ea5:	66 90                	xchg   %ax,%ax
    7fada4ee8ea7:	e8 d4 8b aa ff       	call   0x7fada4991a80
    7fada4ee8eac:	49 8b f7             	mov    %r15,%rsi
    7fada4ee8eaf:	49 ba 30 31 0d bb ad 	movabs $0x7fadbb0d3130,%r10
    7fada4ee8eb6:	7f 00 00 
    7fada4ee8eb9:	41 ff d2             	call   *%r10
    7fada4ee8ebc:	e9 8d f9 ff ff       	jmp    0x7fada4ee884e

