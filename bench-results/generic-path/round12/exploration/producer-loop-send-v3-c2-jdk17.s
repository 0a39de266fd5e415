
/tmp/tmpy4l6db1y:     file format binary


Disassembly of section .data:

00007f8e2cee7540 <.data>:
    7f8e2cee7540:	89 84 24 00 c0 fe ff 	mov    %eax,-0x14000(%rsp)
    7f8e2cee7547:	55                   	push   %rbp
    7f8e2cee7548:	48 81 ec 90 00 00 00 	sub    $0x90,%rsp
    7f8e2cee754f:	4c 8b ce             	mov    %rsi,%r9
    7f8e2cee7552:	48 83 fe 01          	cmp    $0x1,%rsi
    7f8e2cee7556:	0f 8c c0 03 00 00    	jl     0x7f8e2cee791c
    7f8e2cee755c:	41 ba 01 00 00 00    	mov    $0x1,%r10d
    7f8e2cee7562:	4c 3b d6             	cmp    %rsi,%r10
    7f8e2cee7565:	bd ff ff ff ff       	mov    $0xffffffff,%ebp
    7f8e2cee756a:	7c 08                	jl     0x7f8e2cee7574
    7f8e2cee756c:	40 0f 95 c5          	setne  %bpl
    7f8e2cee7570:	40 0f b6 ed          	movzbl %bpl,%ebp
      ; implicit exception: dispatches to 0x00007f8e2cee7932
    7f8e2cee7574:	44 8b 52 08          	mov    0x8(%rdx),%r10d
      ;   {metadata('org/bbflow/core/OutboxImpl')}
    7f8e2cee7578:	41 81 fa 78 11 01 01 	cmp    $0x1011178,%r10d
    7f8e2cee757f:	0f 85 ad 03 00 00    	jne    0x7f8e2cee7932
    7f8e2cee7585:	49 ba fe ff ff ff ff 	movabs $0x7ffffffffffffffe,%r10
    7f8e2cee758c:	ff ff 7f 
    7f8e2cee758f:	49 3b f2             	cmp    %r10,%rsi
    7f8e2cee7592:	0f 8f 71 03 00 00    	jg     0x7f8e2cee7909
    7f8e2cee7598:	4c 8b c2             	mov    %rdx,%r8
    7f8e2cee759b:	48 8b d6             	mov    %rsi,%rdx
    7f8e2cee759e:	48 83 c2 01          	add    $0x1,%rdx
    7f8e2cee75a2:	49 ba a0 af 49 87 06 	movabs $0x68749afa0,%r10
    7f8e2cee75a9:	00 00 00 
    7f8e2cee75ac:	bf 01 00 00 00       	mov    $0x1,%edi
    7f8e2cee75b1:	eb 47                	jmp    0x7f8e2cee75fa
    7f8e2cee75b3:	48 8b 7c 24 08       	mov    0x8(%rsp),%rdi
    7f8e2cee75b8:	48 03 7c 24 38       	add    0x38(%rsp),%rdi
    7f8e2cee75bd:	48 83 c7 01          	add    $0x1,%rdi
    7f8e2cee75c1:	4c 8b 0c 24          	mov    (%rsp),%r9
    7f8e2cee75c5:	4c 8b 44 24 10       	mov    0x10(%rsp),%r8
    7f8e2cee75ca:	48 8b 54 24 18       	mov    0x18(%rsp),%rdx
    7f8e2cee75cf:	48 3b fa             	cmp    %rdx,%rdi
    7f8e2cee75d2:	0f 8d 44 03 00 00    	jge    0x7f8e2cee791c
    7f8e2cee75d8:	4c 8b d7             	mov    %rdi,%r10
    7f8e2cee75db:	49 ff ca             	dec    %r10
    7f8e2cee75de:	4d 0f b7 d2          	movzwq %r10w,%r10
    7f8e2cee75e2:	49 bb a0 af 49 87 06 	movabs $0x68749afa0,%r11
    7f8e2cee75e9:	00 00 00 
      ;   {oop(a 'java/lang/Long'[65536] {0x000000068749afa0})}
    7f8e2cee75ec:	48 b9 a0 af 49 87 06 	movabs $0x68749afa0,%rcx
    7f8e2cee75f3:	00 00 00 
    7f8e2cee75f6:	4e 8d 14 91          	lea    (%rcx,%r10,4),%r10
    7f8e2cee75fa:	41 8b 6a 10          	mov    0x10(%r10),%ebp
    7f8e2cee75fe:	85 ed                	test   %ebp,%ebp
    7f8e2cee7600:	0f 84 32 02 00 00    	je     0x7f8e2cee7838
    7f8e2cee7606:	45 8b 50 30          	mov    0x30(%r8),%r10d
    7f8e2cee760a:	49 8d 1c ec          	lea    (%r12,%rbp,8),%rbx
    7f8e2cee760e:	45 85 d2             	test   %r10d,%r10d
    7f8e2cee7611:	0f 84 31 03 00 00    	je     0x7f8e2cee7948
    7f8e2cee7617:	41 8b 48 38          	mov    0x38(%r8),%ecx
    7f8e2cee761b:	45 8b 9c cc 8c 00 00 	mov    0x8c(%r12,%rcx,8),%r11d
    7f8e2cee7622:	00 
    7f8e2cee7623:	49 8b b4 cc 20 01 00 	mov    0x120(%r12,%rcx,8),%rsi
    7f8e2cee762a:	00 
    7f8e2cee762b:	49 8b 84 cc 90 00 00 	mov    0x90(%r12,%rcx,8),%rax
    7f8e2cee7632:	00 
    7f8e2cee7633:	49 3b b4 cc 28 01 00 	cmp    0x128(%r12,%rcx,8),%rsi
    7f8e2cee763a:	00 
    7f8e2cee763b:	0f 8d 33 02 00 00    	jge    0x7f8e2cee7874
    7f8e2cee7641:	48 8b de             	mov    %rsi,%rbx
    7f8e2cee7644:	48 23 d8             	and    %rax,%rbx
    7f8e2cee7647:	49 8b c1             	mov    %r9,%rax
    7f8e2cee764a:	48 2b c7             	sub    %rdi,%rax
    7f8e2cee764d:	4c 8b d7             	mov    %rdi,%r10
    7f8e2cee7650:	49 83 c2 01          	add    $0x1,%r10
    7f8e2cee7654:	48 83 c0 01          	add    $0x1,%rax
    7f8e2cee7658:	45 33 ed             	xor    %r13d,%r13d
    7f8e2cee765b:	48 3b d7             	cmp    %rdi,%rdx
    7f8e2cee765e:	49 0f 4c c5          	cmovl  %r13,%rax
    7f8e2cee7662:	49 c1 e3 03          	shl    $0x3,%r11
    7f8e2cee7666:	4d 8d 5c 9b 10       	lea    0x10(%r11,%rbx,4),%r11
    7f8e2cee766b:	41 89 2b             	mov    %ebp,(%r11)
    7f8e2cee766e:	48 81 f8 fd ff ff 7f 	cmp    $0x7ffffffd,%rax
    7f8e2cee7675:	bb fd ff ff 7f       	mov    $0x7ffffffd,%ebx
    7f8e2cee767a:	48 0f 47 c3          	cmova  %rbx,%rax
    7f8e2cee767e:	49 8b db             	mov    %r11,%rbx
    7f8e2cee7681:	44 8b d8             	mov    %eax,%r11d
    7f8e2cee7684:	48 c1 eb 09          	shr    $0x9,%rbx
    7f8e2cee7688:	48 b8 00 90 02 3e 8e 	movabs $0x7f8e3e029000,%rax
    7f8e2cee768f:	7f 00 00 
    7f8e2cee7692:	44 88 24 18          	mov    %r12b,(%rax,%rbx,1)
    7f8e2cee7696:	48 83 c6 01          	add    $0x1,%rsi
    7f8e2cee769a:	49 89 b4 cc 20 01 00 	mov    %rsi,0x120(%r12,%rcx,8)
    7f8e2cee76a1:	00 
    7f8e2cee76a2:	49 8b 8f 48 03 00 00 	mov    0x348(%r15),%rcx
    7f8e2cee76a9:	85 01                	test   %eax,(%rcx)
    7f8e2cee76ab:	41 83 fb 01          	cmp    $0x1,%r11d
    7f8e2cee76af:	0f 8e 4c 02 00 00    	jle    0x7f8e2cee7901
    7f8e2cee76b5:	41 ba 01 00 00 00    	mov    $0x1,%r10d
    7f8e2cee76bb:	e9 75 00 00 00       	jmp    0x7f8e2cee7735
    7f8e2cee76c0:	4c 8b 5c 24 58       	mov    0x58(%rsp),%r11
    7f8e2cee76c5:	4c 23 5c 24 50       	and    0x50(%rsp),%r11
    7f8e2cee76ca:	4c 8b 54 24 50       	mov    0x50(%rsp),%r10
    7f8e2cee76cf:	49 83 c2 01          	add    $0x1,%r10
    7f8e2cee76d3:	8b 6c 24 60          	mov    0x60(%rsp),%ebp
    7f8e2cee76d7:	4d 8d 04 ec          	lea    (%r12,%rbp,8),%r8
    7f8e2cee76db:	4f 8d 44 98 10       	lea    0x10(%r8,%r11,4),%r8
    7f8e2cee76e0:	44 8b 5c 24 28       	mov    0x28(%rsp),%r11d
    7f8e2cee76e5:	45 89 18             	mov    %r11d,(%r8)
    7f8e2cee76e8:	4d 8b d8             	mov    %r8,%r11
    7f8e2cee76eb:	49 c1 eb 09          	shr    $0x9,%r11
    7f8e2cee76ef:	49 b8 00 90 02 3e 8e 	movabs $0x7f8e3e029000,%r8
    7f8e2cee76f6:	7f 00 00 
    7f8e2cee76f9:	47 88 24 18          	mov    %r12b,(%r8,%r11,1)
    7f8e2cee76fd:	44 8b 5c 24 34       	mov    0x34(%rsp),%r11d
    7f8e2cee7702:	4f 89 94 dc 20 01 00 	mov    %r10,0x120(%r12,%r11,8)
    7f8e2cee7709:	00 
    7f8e2cee770a:	44 8b 54 24 30       	mov    0x30(%rsp),%r10d
    7f8e2cee770f:	41 ff c2             	inc    %r10d
    7f8e2cee7712:	44 3b 54 24 2c       	cmp    0x2c(%rsp),%r10d
    7f8e2cee7717:	0f 8d 96 fe ff ff    	jge    0x7f8e2cee75b3
    7f8e2cee771d:	4c 8b 0c 24          	mov    (%rsp),%r9
    7f8e2cee7721:	48 8b 7c 24 08       	mov    0x8(%rsp),%rdi
    7f8e2cee7726:	4c 8b 44 24 10       	mov    0x10(%rsp),%r8
    7f8e2cee772b:	48 8b 54 24 18       	mov    0x18(%rsp),%rdx
    7f8e2cee7730:	44 8b 5c 24 2c       	mov    0x2c(%rsp),%r11d
    7f8e2cee7735:	49 63 c2             	movslq %r10d,%rax
    7f8e2cee7738:	48 8b d8             	mov    %rax,%rbx
    7f8e2cee773b:	48 03 df             	add    %rdi,%rbx
    7f8e2cee773e:	48 8b cb             	mov    %rbx,%rcx
    7f8e2cee7741:	48 ff c9             	dec    %rcx
    7f8e2cee7744:	48 0f b7 c9          	movzwq %cx,%rcx
      ;   {oop(a 'java/lang/Long'[65536] {0x000000068749afa0})}
    7f8e2cee7748:	48 be a0 af 49 87 06 	movabs $0x68749afa0,%rsi
    7f8e2cee774f:	00 00 00 
    7f8e2cee7752:	8b 6c 8e 10          	mov    0x10(%rsi,%rcx,4),%ebp
    7f8e2cee7756:	85 ed                	test   %ebp,%ebp
    7f8e2cee7758:	0f 84 dd 00 00 00    	je     0x7f8e2cee783b
    7f8e2cee775e:	48 89 5c 24 48       	mov    %rbx,0x48(%rsp)
    7f8e2cee7763:	48 89 44 24 38       	mov    %rax,0x38(%rsp)
    7f8e2cee7768:	44 89 54 24 30       	mov    %r10d,0x30(%rsp)
    7f8e2cee776d:	44 89 5c 24 2c       	mov    %r11d,0x2c(%rsp)
    7f8e2cee7772:	89 6c 24 28          	mov    %ebp,0x28(%rsp)
    7f8e2cee7776:	48 89 54 24 18       	mov    %rdx,0x18(%rsp)
    7f8e2cee777b:	48 89 7c 24 08       	mov    %rdi,0x8(%rsp)
    7f8e2cee7780:	4c 89 0c 24          	mov    %r9,(%rsp)
    7f8e2cee7784:	45 8b 50 30          	mov    0x30(%r8),%r10d
    7f8e2cee7788:	4c 89 44 24 10       	mov    %r8,0x10(%rsp)
    7f8e2cee778d:	4d 8d 1c ec          	lea    (%r12,%rbp,8),%r11
    7f8e2cee7791:	4c 89 5c 24 20       	mov    %r11,0x20(%rsp)
    7f8e2cee7796:	45 85 d2             	test   %r10d,%r10d
    7f8e2cee7799:	0f 84 b5 00 00 00    	je     0x7f8e2cee7854
    7f8e2cee779f:	41 8b 68 38          	mov    0x38(%r8),%ebp
    7f8e2cee77a3:	89 6c 24 34          	mov    %ebp,0x34(%rsp)
    7f8e2cee77a7:	4d 8b 9c ec 20 01 00 	mov    0x120(%r12,%rbp,8),%r11
    7f8e2cee77ae:	00 
    7f8e2cee77af:	4c 89 5c 24 50       	mov    %r11,0x50(%rsp)
    7f8e2cee77b4:	49 8b ac ec 90 00 00 	mov    0x90(%r12,%rbp,8),%rbp
    7f8e2cee77bb:	00 
    7f8e2cee77bc:	48 89 6c 24 58       	mov    %rbp,0x58(%rsp)
    7f8e2cee77c1:	8b 6c 24 34          	mov    0x34(%rsp),%ebp
    7f8e2cee77c5:	41 8b ac ec 8c 00 00 	mov    0x8c(%r12,%rbp,8),%ebp
    7f8e2cee77cc:	00 
    7f8e2cee77cd:	89 6c 24 60          	mov    %ebp,0x60(%rsp)
    7f8e2cee77d1:	8b 6c 24 34          	mov    0x34(%rsp),%ebp
    7f8e2cee77d5:	4d 3b 9c ec 28 01 00 	cmp    0x128(%r12,%rbp,8),%r11
    7f8e2cee77dc:	00 
    7f8e2cee77dd:	0f 8c dd fe ff ff    	jl     0x7f8e2cee76c0
    7f8e2cee77e3:	8b 6c 24 60          	mov    0x60(%rsp),%ebp
    7f8e2cee77e7:	48 8b d5             	mov    %rbp,%rdx
    7f8e2cee77ea:	48 c1 e2 03          	shl    $0x3,%rdx
    7f8e2cee77ee:	8b 6c 24 34          	mov    0x34(%rsp),%ebp
    7f8e2cee77f2:	49 8d 34 ec          	lea    (%r12,%rbp,8),%rsi
    7f8e2cee77f6:	49 c1 e2 03          	shl    $0x3,%r10
    7f8e2cee77fa:	4c 89 54 24 40       	mov    %r10,0x40(%rsp)
    7f8e2cee77ff:	48 8b 4c 24 58       	mov    0x58(%rsp),%rcx
    7f8e2cee7804:	4d 8b c3             	mov    %r11,%r8
    7f8e2cee7807:	48 89 74 24 70       	mov    %rsi,0x70(%rsp)
    7f8e2cee780c:	48 8b 6c 24 20       	mov    0x20(%rsp),%rbp
    7f8e2cee7811:	66 90                	xchg   %ax,%ax
    7f8e2cee7813:	e8 68 1e aa ff       	call   0x7f8e2c989680
    7f8e2cee7818:	85 c0                	test   %eax,%eax
    7f8e2cee781a:	0f 85 a0 fe ff ff    	jne    0x7f8e2cee76c0
    7f8e2cee7820:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7f8e2cee7825:	48 8b 2c 24          	mov    (%rsp),%rbp
    7f8e2cee7829:	4c 8b 54 24 20       	mov    0x20(%rsp),%r10
    7f8e2cee782e:	4c 89 54 24 18       	mov    %r10,0x18(%rsp)
    7f8e2cee7833:	e8 48 9f aa ff       	call   0x7f8e2c991780
    7f8e2cee7838:	48 8b df             	mov    %rdi,%rbx
    7f8e2cee783b:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7f8e2cee7840:	4c 89 0c 24          	mov    %r9,(%rsp)
    7f8e2cee7844:	48 89 5c 24 10       	mov    %rbx,0x10(%rsp)
    7f8e2cee7849:	4c 89 44 24 18       	mov    %r8,0x18(%rsp)
    7f8e2cee784e:	90                   	nop
    7f8e2cee784f:	e8 2c 9f aa ff       	call   0x7f8e2c991780
    7f8e2cee7854:	49 8b db             	mov    %r11,%rbx
    7f8e2cee7857:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7f8e2cee785c:	49 8b e9             	mov    %r9,%rbp
    7f8e2cee785f:	4c 89 44 24 10       	mov    %r8,0x10(%rsp)
    7f8e2cee7864:	48 89 5c 24 18       	mov    %rbx,0x18(%rsp)
    7f8e2cee7869:	44 89 54 24 24       	mov    %r10d,0x24(%rsp)
    7f8e2cee786e:	90                   	nop
    7f8e2cee786f:	e8 0c 9f aa ff       	call   0x7f8e2c991780
    7f8e2cee7874:	48 89 44 24 38       	mov    %rax,0x38(%rsp)
    7f8e2cee7879:	48 89 74 24 30       	mov    %rsi,0x30(%rsp)
    7f8e2cee787e:	48 89 5c 24 20       	mov    %rbx,0x20(%rsp)
    7f8e2cee7883:	89 6c 24 18          	mov    %ebp,0x18(%rsp)
    7f8e2cee7887:	48 89 54 24 08       	mov    %rdx,0x8(%rsp)
    7f8e2cee788c:	4c 89 44 24 10       	mov    %r8,0x10(%rsp)
    7f8e2cee7891:	48 8b ef             	mov    %rdi,%rbp
    7f8e2cee7894:	4c 89 0c 24          	mov    %r9,(%rsp)
    7f8e2cee7898:	49 8b d3             	mov    %r11,%rdx
    7f8e2cee789b:	48 c1 e2 03          	shl    $0x3,%rdx
    7f8e2cee789f:	44 89 5c 24 28       	mov    %r11d,0x28(%rsp)
    7f8e2cee78a4:	49 c1 e2 03          	shl    $0x3,%r10
    7f8e2cee78a8:	4c 89 54 24 40       	mov    %r10,0x40(%rsp)
    7f8e2cee78ad:	4d 8d 14 cc          	lea    (%r12,%rcx,8),%r10
    7f8e2cee78b1:	89 4c 24 1c          	mov    %ecx,0x1c(%rsp)
    7f8e2cee78b5:	49 8b f2             	mov    %r10,%rsi
    7f8e2cee78b8:	48 8b c8             	mov    %rax,%rcx
    7f8e2cee78bb:	4c 8b 44 24 30       	mov    0x30(%rsp),%r8
    7f8e2cee78c0:	48 89 74 24 50       	mov    %rsi,0x50(%rsp)
    7f8e2cee78c5:	66 90                	xchg   %ax,%ax
    7f8e2cee78c7:	e8 b4 1d aa ff       	call   0x7f8e2c989680
    7f8e2cee78cc:	85 c0                	test   %eax,%eax
    7f8e2cee78ce:	0f 84 7e 00 00 00    	je     0x7f8e2cee7952
    7f8e2cee78d4:	4c 8b 0c 24          	mov    (%rsp),%r9
    7f8e2cee78d8:	48 8b fd             	mov    %rbp,%rdi
    7f8e2cee78db:	4c 8b 44 24 10       	mov    0x10(%rsp),%r8
    7f8e2cee78e0:	48 8b 54 24 08       	mov    0x8(%rsp),%rdx
    7f8e2cee78e5:	8b 6c 24 18          	mov    0x18(%rsp),%ebp
    7f8e2cee78e9:	8b 4c 24 1c          	mov    0x1c(%rsp),%ecx
    7f8e2cee78ed:	44 8b 5c 24 28       	mov    0x28(%rsp),%r11d
    7f8e2cee78f2:	48 8b 74 24 30       	mov    0x30(%rsp),%rsi
    7f8e2cee78f7:	48 8b 44 24 38       	mov    0x38(%rsp),%rax
    7f8e2cee78fc:	e9 40 fd ff ff       	jmp    0x7f8e2cee7641
    7f8e2cee7901:	49 8b fa             	mov    %r10,%rdi
    7f8e2cee7904:	e9 c6 fc ff ff       	jmp    0x7f8e2cee75cf
    7f8e2cee7909:	be 6e ff ff ff       	mov    $0xffffff6e,%esi
    7f8e2cee790e:	4c 89 0c 24          	mov    %r9,(%rsp)
    7f8e2cee7912:	48 89 54 24 08       	mov    %rdx,0x8(%rsp)
    7f8e2cee7917:	e8 64 9e aa ff       	call   0x7f8e2c991780
    7f8e2cee791c:	48 81 c4 90 00 00 00 	add    $0x90,%rsp
    7f8e2cee7923:	5d                   	pop    %rbp
      ;   {poll_return}
    7f8e2cee7924:	49 3b a7 40 03 00 00 	cmp    0x340(%r15),%rsp
    7f8e2cee792b:	0f 87 54 00 00 00    	ja     0x7f8e2cee7985
    7f8e2cee7931:	c3                   	ret
    7f8e2cee7932:	be 76 ff ff ff       	mov    $0xffffff76,%esi
    7f8e2cee7937:	4c 89 0c 24          	mov    %r9,(%rsp)
    7f8e2cee793b:	48 89 54 24 08       	mov    %rdx,0x8(%rsp)
      ;   {runtime_call UncommonTrapBlob}
    7f8e2cee7940:	66 66 90             	data16 xchg %ax,%ax
    7f8e2cee7943:	e8 38 9e aa ff       	call   0x7f8e2c991780
    7f8e2cee7948:	48 89 7c 24 48       	mov    %rdi,0x48(%rsp)
    7f8e2cee794d:	e9 05 ff ff ff       	jmp    0x7f8e2cee7857
    7f8e2cee7952:	48 89 6c 24 48       	mov    %rbp,0x48(%rsp)
    7f8e2cee7957:	e9 c4 fe ff ff       	jmp    0x7f8e2cee7820
    7f8e2cee795c:	48 8b 5c 24 20       	mov    0x20(%rsp),%rbx
    7f8e2cee7961:	be f6 ff ff ff       	mov    $0xfffffff6,%esi
    7f8e2cee7966:	48 8b eb             	mov    %rbx,%rbp
    7f8e2cee7969:	66 90                	xchg   %ax,%ax
    7f8e2cee796b:	e8 10 9e aa ff       	call   0x7f8e2c991780
    7f8e2cee7970:	48 8b f0             	mov    %rax,%rsi
    7f8e2cee7973:	eb 03                	jmp    0x7f8e2cee7978
    7f8e2cee7975:	48 8b f0             	mov    %rax,%rsi
    7f8e2cee7978:	48 81 c4 90 00 00 00 	add    $0x90,%rsp
    7f8e2cee797f:	5d                   	pop    %rbp
      ;   {runtime_call _rethrow_Java}
    7f8e2cee7980:	e9 fb b0 ab ff       	jmp    0x7f8e2c9a2a80
    7f8e2cee7985:	49 ba 24 79 ee 2c 8e 	movabs $0x7f8e2cee7924,%r10
    7f8e2cee798c:	7f 00 00 
    7f8e2cee798f:	4d 89 97 58 03 00 00 	mov    %r10,0x358(%r15)
    7f8e2cee7996:	e9 65 8c aa ff       	jmp    0x7f8e2c990600
    7f8e2cee799b:	f4                   	hlt
    7f8e2cee799c:	f4                   	hlt
    7f8e2cee799d:	f4                   	hlt
    7f8e2cee799e:	f4                   	hlt
    7f8e2cee799f:	f4                   	hlt

