
/tmp/tmp768i7ph0:     file format binary


Disassembly of section .data:

00007fc010ee3760 <.data>:
    7fc010ee3760:	44 8b 56 08          	mov    0x8(%rsi),%r10d
    7fc010ee3764:	49 bb 00 00 00 a3 bf 	movabs $0x7fbfa3000000,%r11
    7fc010ee376b:	7f 00 00 
    7fc010ee376e:	4d 03 d3             	add    %r11,%r10
    7fc010ee3771:	49 3b c2             	cmp    %r10,%rax
      ;   {runtime_call ic_miss_stub}
    7fc010ee3774:	0f 85 06 5a aa ff    	jne    0x7fc010989180
    7fc010ee377a:	66 90                	xchg   %ax,%ax
    7fc010ee377c:	0f 1f 40 00          	nopl   0x0(%rax)
    7fc010ee3780:	89 84 24 00 c0 fe ff 	mov    %eax,-0x14000(%rsp)
    7fc010ee3787:	55                   	push   %rbp
    7fc010ee3788:	48 83 ec 50          	sub    $0x50,%rsp
    7fc010ee378c:	48 89 0c 24          	mov    %rcx,(%rsp)
    7fc010ee3790:	48 8b ce             	mov    %rsi,%rcx
    7fc010ee3793:	44 8b 96 80 01 00 00 	mov    0x180(%rsi),%r10d
    7fc010ee379a:	44 8b 9e a4 01 00 00 	mov    0x1a4(%rsi),%r11d
    7fc010ee37a1:	c4 c1 79 6e c3       	vmovd  %r11d,%xmm0
    7fc010ee37a6:	44 8b 86 88 01 00 00 	mov    0x188(%rsi),%r8d
    7fc010ee37ad:	c4 c1 79 6e c8       	vmovd  %r8d,%xmm1
    7fc010ee37b2:	0f b6 ae 75 01 00 00 	movzbl 0x175(%rsi),%ebp
    7fc010ee37b9:	85 ed                	test   %ebp,%ebp
    7fc010ee37bb:	0f 85 eb 04 00 00    	jne    0x7fc010ee3cac
    7fc010ee37c1:	44 89 a6 a0 00 00 00 	mov    %r12d,0xa0(%rsi)
    7fc010ee37c8:	4c 8b da             	mov    %rdx,%r11
    7fc010ee37cb:	0f b6 6a 16          	movzbl 0x16(%rdx),%ebp
    7fc010ee37cf:	85 ed                	test   %ebp,%ebp
    7fc010ee37d1:	0f 84 f9 04 00 00    	je     0x7fc010ee3cd0
    7fc010ee37d7:	0f b6 6a 14          	movzbl 0x14(%rdx),%ebp
    7fc010ee37db:	85 ed                	test   %ebp,%ebp
    7fc010ee37dd:	0f 85 11 05 00 00    	jne    0x7fc010ee3cf4
    7fc010ee37e3:	8b 6a 30             	mov    0x30(%rdx),%ebp
    7fc010ee37e6:	85 ed                	test   %ebp,%ebp
    7fc010ee37e8:	0f 85 75 04 00 00    	jne    0x7fc010ee3c63
    7fc010ee37ee:	8b 5a 2c             	mov    0x2c(%rdx),%ebx
    7fc010ee37f1:	45 8b 8c dc 90 00 00 	mov    0x90(%r12,%rbx,8),%r9d
    7fc010ee37f8:	00 
    7fc010ee37f9:	45 85 c9             	test   %r9d,%r9d
    7fc010ee37fc:	0f 85 3e 03 00 00    	jne    0x7fc010ee3b40
    7fc010ee3802:	c4 c1 79 7e c8       	vmovd  %xmm1,%r8d
    7fc010ee3807:	43 0f b6 ac c4 90 00 	movzbl 0x90(%r12,%r8,8),%ebp
    7fc010ee380e:	00 00 
    7fc010ee3810:	85 ed                	test   %ebp,%ebp
    7fc010ee3812:	0f 85 00 05 00 00    	jne    0x7fc010ee3d18
      ; implicit exception: dispatches to 0x00007fc010ee3c88
    7fc010ee3818:	47 8b 4c d4 08       	mov    0x8(%r12,%r10,8),%r9d
    7fc010ee381d:	41 81 f9 48 38 00 01 	cmp    $0x1003848,%r9d
    7fc010ee3824:	0f 85 5e 04 00 00    	jne    0x7fc010ee3c88
    7fc010ee382a:	4b 8d 14 c4          	lea    (%r12,%r8,8),%rdx
    7fc010ee382e:	4f 8d 04 d4          	lea    (%r12,%r10,8),%r8
    7fc010ee3832:	41 ba 01 00 00 00    	mov    $0x1,%r10d
    7fc010ee3838:	e9 a0 00 00 00       	jmp    0x7fc010ee38dd
    7fc010ee383d:	4d 8b 4f 30          	mov    0x30(%r15),%r9
    7fc010ee3841:	49 89 7c 31 f8       	mov    %rdi,-0x8(%r9,%rsi,1)
    7fc010ee3846:	48 83 c6 f8          	add    $0xfffffffffffffff8,%rsi
    7fc010ee384a:	49 89 77 20          	mov    %rsi,0x20(%r15)
    7fc010ee384e:	8b 74 24 1c          	mov    0x1c(%rsp),%esi
    7fc010ee3852:	0f 1f 80 00 00 00 00 	nopl   0x0(%rax)
    7fc010ee3859:	0f 1f 80 00 00 00 00 	nopl   0x0(%rax)
    7fc010ee3860:	47 89 64 ae 10       	mov    %r12d,0x10(%r14,%r13,4)
    7fc010ee3865:	48 83 c3 01          	add    $0x1,%rbx
    7fc010ee3869:	49 89 9c ec b0 01 00 	mov    %rbx,0x1b0(%r12,%rbp,8)
    7fc010ee3870:	00 
    7fc010ee3871:	4d 8d 0c f4          	lea    (%r12,%rsi,8),%r9
    7fc010ee3875:	49 8b 9f 48 03 00 00 	mov    0x348(%r15),%rbx
      ;   {poll}
    7fc010ee387c:	85 03                	test   %eax,(%rbx)
    7fc010ee387e:	4d 85 c9             	test   %r9,%r9
    7fc010ee3881:	0f 84 6b 01 00 00    	je     0x7fc010ee39f2
    7fc010ee3887:	41 0f b6 6b 16       	movzbl 0x16(%r11),%ebp
    7fc010ee388c:	85 ed                	test   %ebp,%ebp
    7fc010ee388e:	0f 84 1e 03 00 00    	je     0x7fc010ee3bb2
    7fc010ee3894:	41 0f b6 6b 14       	movzbl 0x14(%r11),%ebp
    7fc010ee3899:	85 ed                	test   %ebp,%ebp
    7fc010ee389b:	0f 85 3f 03 00 00    	jne    0x7fc010ee3be0
    7fc010ee38a1:	41 8b 6b 30          	mov    0x30(%r11),%ebp
    7fc010ee38a5:	85 ed                	test   %ebp,%ebp
    7fc010ee38a7:	0f 85 63 02 00 00    	jne    0x7fc010ee3b10
    7fc010ee38ad:	41 8b 5b 2c          	mov    0x2c(%r11),%ebx
    7fc010ee38b1:	41 8b b4 dc 90 00 00 	mov    0x90(%r12,%rbx,8),%esi
    7fc010ee38b8:	00 
    7fc010ee38b9:	85 f6                	test   %esi,%esi
    7fc010ee38bb:	0f 85 6a 01 00 00    	jne    0x7fc010ee3a2b
    7fc010ee38c1:	c5 f9 7e cf          	vmovd  %xmm1,%edi
    7fc010ee38c5:	41 0f b6 ac fc 90 00 	movzbl 0x90(%r12,%rdi,8),%ebp
    7fc010ee38cc:	00 00 
    7fc010ee38ce:	85 ed                	test   %ebp,%ebp
    7fc010ee38d0:	0f 85 3a 03 00 00    	jne    0x7fc010ee3c10
    7fc010ee38d6:	41 ff c2             	inc    %r10d
    7fc010ee38d9:	4c 89 0c 24          	mov    %r9,(%rsp)
    7fc010ee38dd:	41 8b 68 0c          	mov    0xc(%r8),%ebp
    7fc010ee38e1:	41 8b 5c ec 08       	mov    0x8(%r12,%rbp,8),%ebx
    7fc010ee38e6:	81 fb 20 36 00 01    	cmp    $0x1003620,%ebx
    7fc010ee38ec:	0f 85 c2 01 00 00    	jne    0x7fc010ee3ab4
    7fc010ee38f2:	4d 8d 0c ec          	lea    (%r12,%rbp,8),%r9
    7fc010ee38f6:	41 8b 69 0c          	mov    0xc(%r9),%ebp
    7fc010ee38fa:	48 8b 3c 24          	mov    (%rsp),%rdi
    7fc010ee38fe:	8b 5f 08             	mov    0x8(%rdi),%ebx
    7fc010ee3901:	81 fb 28 4f 04 00    	cmp    $0x44f28,%ebx
    7fc010ee3907:	0f 85 19 05 00 00    	jne    0x7fc010ee3e26
    7fc010ee390d:	45 8b 4c ec 0c       	mov    0xc(%r12,%rbp,8),%r9d
    7fc010ee3912:	45 85 c9             	test   %r9d,%r9d
    7fc010ee3915:	0f 86 c5 01 00 00    	jbe    0x7fc010ee3ae0
    7fc010ee391b:	4c 8b 4f 10          	mov    0x10(%rdi),%r9
    7fc010ee391f:	49 d1 e1             	shl    %r9
    7fc010ee3922:	4d 01 4c ec 10       	add    %r9,0x10(%r12,%rbp,8)
    7fc010ee3927:	41 81 fa 00 01 00 00 	cmp    $0x100,%r10d
    7fc010ee392e:	0f 8d be 00 00 00    	jge    0x7fc010ee39f2
    7fc010ee3934:	41 8b 6b 20          	mov    0x20(%r11),%ebp
      ; implicit exception: dispatches to 0x00007fc010ee3efc
    7fc010ee3938:	45 8b 8c ec 8c 00 00 	mov    0x8c(%r12,%rbp,8),%r9d
    7fc010ee393f:	00 
    7fc010ee3940:	49 8b 9c ec b0 01 00 	mov    0x1b0(%r12,%rbp,8),%rbx
    7fc010ee3947:	00 
    7fc010ee3948:	4c 8b eb             	mov    %rbx,%r13
    7fc010ee394b:	4d 23 ac ec 90 00 00 	and    0x90(%r12,%rbp,8),%r13
    7fc010ee3952:	00 
    7fc010ee3953:	4f 8d 34 cc          	lea    (%r12,%r9,8),%r14
    7fc010ee3957:	43 8b 74 ae 10       	mov    0x10(%r14,%r13,4),%esi
    7fc010ee395c:	85 f6                	test   %esi,%esi
    7fc010ee395e:	0f 84 bf 00 00 00    	je     0x7fc010ee3a23
    7fc010ee3964:	41 80 7f 38 00       	cmpb   $0x0,0x38(%r15)
    7fc010ee3969:	0f 84 f1 fe ff ff    	je     0x7fc010ee3860
    7fc010ee396f:	47 8b 4c ae 10       	mov    0x10(%r14,%r13,4),%r9d
    7fc010ee3974:	45 85 c9             	test   %r9d,%r9d
    7fc010ee3977:	0f 84 e3 fe ff ff    	je     0x7fc010ee3860
    7fc010ee397d:	89 74 24 1c          	mov    %esi,0x1c(%rsp)
    7fc010ee3981:	49 8b 77 20          	mov    0x20(%r15),%rsi
    7fc010ee3985:	49 8b f9             	mov    %r9,%rdi
    7fc010ee3988:	48 c1 e7 03          	shl    $0x3,%rdi
    7fc010ee398c:	48 85 f6             	test   %rsi,%rsi
    7fc010ee398f:	0f 85 a8 fe ff ff    	jne    0x7fc010ee383d
    7fc010ee3995:	4c 89 44 24 28       	mov    %r8,0x28(%rsp)
    7fc010ee399a:	48 89 54 24 20       	mov    %rdx,0x20(%rsp)
    7fc010ee399f:	44 89 54 24 18       	mov    %r10d,0x18(%rsp)
    7fc010ee39a4:	c5 fa 11 4c 24 14    	vmovss %xmm1,0x14(%rsp)
    7fc010ee39aa:	c5 fa 11 44 24 10    	vmovss %xmm0,0x10(%rsp)
    7fc010ee39b0:	4c 89 5c 24 08       	mov    %r11,0x8(%rsp)
    7fc010ee39b5:	48 89 0c 24          	mov    %rcx,(%rsp)
    7fc010ee39b9:	49 8b f7             	mov    %r15,%rsi
    7fc010ee39bc:	49 ba 30 31 cd 24 c0 	movabs $0x7fc024cd3130,%r10
    7fc010ee39c3:	7f 00 00 
    7fc010ee39c6:	41 ff d2             	call   *%r10
    7fc010ee39c9:	48 8b 0c 24          	mov    (%rsp),%rcx
    7fc010ee39cd:	4c 8b 5c 24 08       	mov    0x8(%rsp),%r11
    7fc010ee39d2:	c5 fa 10 44 24 10    	vmovss 0x10(%rsp),%xmm0
    7fc010ee39d8:	c5 fa 10 4c 24 14    	vmovss 0x14(%rsp),%xmm1
    7fc010ee39de:	44 8b 54 24 18       	mov    0x18(%rsp),%r10d
    7fc010ee39e3:	48 8b 54 24 20       	mov    0x20(%rsp),%rdx

